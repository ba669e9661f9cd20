// The peers, in the same run: what a tool author might use instead (or beside) this library,
// each making the same keep-alive GET as raw fetch, paired with it call by call. Printed beside
// our own figures; the ratio is each peer's median per call over raw fetch's in its own pairing.

import { Octokit } from "@octokit/core";
import { throttling } from "@octokit/plugin-throttling";
import got from "got";
import ky from "ky";
import pRetry from "p-retry";
import { change, micro, paired } from "./measure.js";

export async function benchPeers(okUrl: string): Promise<void> {
  const api = ky.create({ retry: 0 });
  const client = got.extend({ retry: { limit: 0 }, agent: {} });
  const origin = new URL(okUrl).origin;
  const path = `${new URL(okUrl).pathname}${new URL(okUrl).search}`;
  const ThrottledOctokit = Octokit.plugin(throttling);
  const octokit = new ThrottledOctokit({
    baseUrl: origin,
    throttle: { onRateLimit: () => false, onSecondaryRateLimit: () => false },
  });
  const raw = async () => (await fetch(okUrl)).arrayBuffer();
  const peers: [string, () => Promise<unknown>][] = [
    ["ky.get (retry 0)", async () => (await api.get(okUrl)).arrayBuffer()],
    ["got (retry 0)", () => client.get(okUrl).buffer()],
    ["p-retry around fetch", () => pRetry(raw, { retries: 2 })],
    ["Octokit + plugin-throttling", () => octokit.request(`GET ${path}`)],
  ];
  console.log("\npeers, success path: each paired with raw fetch, median per call");
  for (const [name, call] of peers) {
    // Octokit's Bottleneck scheduling makes each call slow: fewer calls keep the run short.
    const calls = name.startsWith("Octokit") ? 300 : 2000;
    const result = await paired({ "raw fetch": raw, [name]: call }, calls);
    const base = result["raw fetch"] ?? Number.NaN;
    const ns = result[name] ?? Number.NaN;
    console.log(
      `  ${name.padEnd(30)}${micro(ns)}   ×${(ns / base).toFixed(2)} raw fetch (${change(ns, base)})`,
    );
  }
}
