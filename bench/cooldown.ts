// The cooldown's cost (issue 12): the success path with a memory or Redis cooldown against the
// same throttledFetch without one, alone and with 16 and 128 callers; how fast a throttle seen
// by one replica reaches another; what a full memory store costs per insert; how many calls per
// second a cooldown answers on the throttle path.

import { channel } from "node:diagnostics_channel";
import { Redis } from "ioredis";
import { do_not_optimize } from "mitata";
import type * as Library from "../src/index.js";
import {
  change,
  median,
  micro,
  paired,
  pairedConcurrent,
  perSecond,
  rate,
  ratio,
  tooNoisy,
} from "./measure.js";

type Lib = typeof Library;

export interface CooldownFigures {
  /** name → CPU time per call (ns) with a fetch that answers at once */
  cpu: [string, number][];
  /** name → ratio of its median to plain throttledFetch's, in the same pairing */
  successRatios: [string, number][];
  concurrent: [string, number, number][];
  propagationMs: number | undefined;
  evictionUs: { empty: number; full: number };
}

const SECRET = "bench partition secret, 32 chars";

export async function benchCooldown(
  lib: Lib,
  ok: string,
  redisUrl: string | undefined,
): Promise<CooldownFigures> {
  const { throttledFetch, RedisCooldownStore, MemoryCooldownStore } = lib;
  const plain = throttledFetch({ limit: "search" });
  const auth = { headers: { authorization: "Bearer sk_live_0123456789abcdef0123456789" } };
  const body = (response: Response) => response.arrayBuffer();
  const clients: Redis[] = [];
  const stores: Library.RedisCooldownStore[] = [];
  const redisStore = (announce: boolean) => {
    if (redisUrl === undefined) return undefined;
    const client = new Redis(redisUrl);
    clients.push(client);
    const store = new RedisCooldownStore({
      client,
      liveView: announce,
      prefix: `bench:${Math.random()}:`,
    });
    stores.push(store);
    return store;
  };
  const variants: [string, typeof fetch, RequestInit | undefined][] = [
    ["cooldown: true (memory)", throttledFetch({ limit: "search", cooldown: true }), undefined],
    [
      "cooldown: true (memory), Authorization",
      throttledFetch({ limit: "search", cooldown: true }),
      auth,
    ],
    ["cooldown: true, no limit (host scope)", throttledFetch({ cooldown: true }), undefined],
  ];
  const announced = redisStore(true);
  const perCall = redisStore(false);
  if (announced !== undefined && perCall !== undefined) {
    const withStore = (store: Library.RedisCooldownStore) =>
      throttledFetch({ limit: "search", cooldown: { store, partitionSecret: SECRET } });
    variants.push(
      ["Redis cooldown (announced view)", withStore(announced), undefined],
      ["Redis cooldown (announced view), Authorization", withStore(announced), auth],
      ["Redis cooldown (liveView: false, GET per call)", withStore(perCall), undefined],
    );
    const deadline = Date.now() + 5000;
    while (!announced.synced && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }
  // Observers present: an onEvent hook and a diagnostics_channel subscriber. The success path
  // emits nothing, so neither may cost anything.
  const subscriber = () => {};
  channel("mcp-upstream-throttle:throttle").subscribe(subscriber);
  variants.push([
    "onEvent + diagnostics subscriber",
    throttledFetch({ limit: "search", onEvent: () => {} }),
    undefined,
  ]);

  console.log("\ncooldown on the success path: each variant paired with throttledFetch() alone");
  const successRatios: [string, number][] = [];
  for (const [name, guarded, init] of variants) {
    const pair = await paired({
      throttledFetch: async () => body(await plain(ok, init)),
      [name]: async () => body(await guarded(ok, init)),
    });
    const base = pair.throttledFetch ?? Number.NaN;
    const value = pair[name] ?? Number.NaN;
    successRatios.push([name, value / base]);
    console.log(
      `  ${name.padEnd(48)}${micro(value)}   ${ratio(value, base)} × (${change(value, base)})`,
    );
  }
  channel("mcp-upstream-throttle:throttle").unsubscribe(subscriber);

  const cpu = await cpuCost(lib, announced);

  const concurrent: [string, number, number][] = [];
  if (announced !== undefined && perCall !== undefined) {
    console.log("\nwith callers in flight: median latency of one call, rounds interleaved");
    const viewed = throttledFetch({
      limit: "search",
      cooldown: { store: announced, partitionSecret: SECRET },
    });
    const asking = throttledFetch({
      limit: "search",
      cooldown: { store: perCall, partitionSecret: SECRET },
    });
    const cases = {
      "throttledFetch()": async () => body(await plain(ok)),
      "Redis cooldown (announced view)": async () => body(await viewed(ok)),
      "Redis cooldown (GET per call)": async () => body(await asking(ok)),
    };
    for (const callers of [16, 128]) {
      const rounds = Math.max(20, Math.floor(2400 / callers));
      const results = await pairedConcurrent(cases, callers, rounds);
      const base = results["throttledFetch()"] ?? Number.NaN;
      for (const [name, ns] of Object.entries(results)) {
        // A figure whose A/A floor is too wide (±5 % at 128 callers) is marked, not kept.
        if (!tooNoisy(base)) concurrent.push([`${name}, ${callers} callers`, ns, ns - base]);
        console.log(
          `  ${`${callers} callers: ${name}`.padEnd(48)}${micro(ns)}   ${change(ns, base)}`,
        );
      }
    }
  }

  const propagationMs = redisUrl === undefined ? undefined : await propagation(lib, redisUrl);
  const evictionUs = eviction(MemoryCooldownStore);

  console.log("\nthrottle path answered by the cooldown: calls per second, 16 in flight");
  const remembered = throttledFetch({ limit: "search", cooldown: true });
  await remembered(`${ok.replace("/ok", "/throttled")}`).catch(() => {});
  console.log(
    `  ${"cooldown hit (memory)".padEnd(37)}${rate(await perSecond(() => remembered(ok).catch(do_not_optimize)))}`,
  );

  for (const store of stores) await store.close();
  for (const client of clients) client.disconnect();
  return { successRatios, cpu, concurrent, propagationMs, evictionUs };
}

/**
 * The same question without the network: a fetch that answers a ready `Response` at once, so
 * what is left is the wrappers' own CPU time per call (ns). Rounds interleave the variants.
 */
async function cpuCost(
  lib: Lib,
  store: Library.RedisCooldownStore | undefined,
): Promise<[string, number][]> {
  const response = new Response("{}", { status: 200 });
  const fetch = (async () => response) as typeof globalThis.fetch;
  const variants: [string, typeof globalThis.fetch][] = [
    ["throttledFetch()", lib.throttledFetch({ limit: "search", fetch })],
    ["cooldown: true (memory)", lib.throttledFetch({ limit: "search", cooldown: true, fetch })],
    ["cooldown: true, no limit (host scope)", lib.throttledFetch({ cooldown: true, fetch })],
  ];
  if (store !== undefined) {
    variants.push([
      "Redis cooldown (announced view)",
      lib.throttledFetch({ limit: "search", cooldown: { store, partitionSecret: SECRET }, fetch }),
    ]);
  }
  const CALLS = 50_000;
  const ROUNDS = 6;
  const totals = variants.map(() => 0);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, [, call]] of variants.entries()) {
      const started = performance.now();
      for (let i = 0; i < CALLS; i += 1) await call("http://127.0.0.1:1/ok?q=q");
      // The first round warms up.
      if (round > 0) totals[index] = (totals[index] ?? 0) + performance.now() - started;
    }
  }
  const costs = variants.map(([name], index): [string, number] => [
    name,
    ((totals[index] ?? 0) * 1e6) / ((ROUNDS - 1) * CALLS),
  ]);
  const base = costs[0]?.[1] ?? Number.NaN;
  console.log("\nthe same without the network (a fetch that answers at once): CPU time per call");
  for (const [name, ns] of costs) {
    console.log(
      `  ${name.padEnd(48)}${ns.toFixed(0).padStart(6)} ns   +${(ns - base).toFixed(0)} ns`,
    );
  }
  return costs;
}
/** Replica A remembers a throttle; how long until replica B (its own connections) honours it. */
async function propagation(lib: Lib, url: string): Promise<number> {
  const prefix = `bench:propagation:${Math.random()}:`;
  const clientA = new Redis(url);
  const clientB = new Redis(url);
  const a = new lib.RedisCooldownStore({ client: clientA, prefix });
  const b = new lib.RedisCooldownStore({ client: clientB, prefix });
  while (!a.synced || !b.synced) await new Promise((r) => setTimeout(r, 10));
  const samples: number[] = [];
  for (let trial = 0; trial < 50; trial += 1) {
    const scope = `limit${trial}`;
    const started = performance.now();
    await a.set(
      `${scope}|p`,
      { until: Date.now() + 60_000, limit: scope, limitSource: "option", status: 429 },
      60_000,
    );
    while (!b.mayHave(scope)) await new Promise((r) => setImmediate(r));
    samples.push(performance.now() - started);
  }
  await a.close();
  await b.close();
  clientA.disconnect();
  clientB.disconnect();
  const ms = median(samples);
  console.log(
    `\nreplica A's throttle honoured by replica B (Redis pub/sub, loopback): median ${ms.toFixed(2)} ms of 50, max ${Math.max(...samples).toFixed(2)} ms`,
  );
  return ms;
}

/** Per-insert cost of a memory store with room, and of one that is full (evicting on every insert). */
function eviction(Store: Lib["MemoryCooldownStore"]): { empty: number; full: number } {
  const entry = {
    until: Date.now() + 60_000,
    limit: "x",
    limitSource: "option" as const,
    status: 429,
  };
  const time = (store: Library.MemoryCooldownStore, from: number, count: number) => {
    const started = performance.now();
    for (let i = from; i < from + count; i += 1) store.set(`scope|${i}`, entry, 60_000);
    return ((performance.now() - started) * 1000) / count;
  };
  const store = new Store({ maxEntries: 10_000 });
  const empty = time(store, 0, 5_000);
  time(store, 5_000, 200_000);
  const full = time(store, 205_000, 200_000);
  console.log(
    `\nMemoryCooldownStore.set (maxEntries 10,000): ${empty.toFixed(3)} µs with room, ${full.toFixed(3)} µs full (after 200,000 evictions)`,
  );
  return { empty, full };
}
