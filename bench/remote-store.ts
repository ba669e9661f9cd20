// A cooldown store a network away (`tsx bench/remote-store.ts`): HttpRedisCooldownStore with the
// real `@upstash/redis` client, through the local REST bridge the tests use, in front of a real
// redis-server, with 0 (loopback alone), 50, 150 and 300 ms added to every store answer. Four
// "isolates" (each its own client, store and wrapper, nothing in memory in common) call one
// upstream with one server-wide key, all in the same run against no cooldown:
//   penalty: the upstream throttles every request (Retry-After: 30); each isolate calls 10 times
//            in a row, the four at once. Requests that reached the upstream, and so saved.
//   success: the upstream answers 200 after 20 ms; each isolate calls 10 times in a row.
// Per call: the mean time against no cooldown's in the same phase (the added latency), and the
// store errors reported. `storeTimeoutMs: 250` is the guard's wait before stores declared theirs.
// Rounds interleave the setups. Prints a table; asserts nothing.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { Redis } from "@upstash/redis";
import { HttpRedisCooldownStore, throttledFetch } from "../src/index.js";
import { startRestRedisBridge } from "../test/helpers/rest-redis.js";
import { startBenchRedis } from "./redis.js";

const LATENCIES_MS = [0, 50, 150, 300];
const ISOLATES = 4;
const CALLS = 10;
const ROUNDS = 3;
const SECRET = "bench partition secret, 32 chars";
const KEY = { headers: { authorization: "Bearer server-wide-key" } };

type Setup = "none" | "timeout 250 ms" | "store's own timeout";
const SETUPS: Setup[] = ["none", "timeout 250 ms", "store's own timeout"];

interface Phase {
  upstreamRequests: number;
  meanMs: number;
  storeErrors: number;
}

async function startUpstream(): Promise<{ url: string; requests: () => number; server: Server }> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    if (request.url?.startsWith("/penalty")) {
      response.writeHead(429, { "retry-after": "30", "content-type": "application/json" });
      response.end("{}");
      return;
    }
    setTimeout(() => response.writeHead(200).end("ok"), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests: () => requests, server };
}

/** One phase: ISOLATES isolates at once, CALLS calls each in a row. */
async function phase(
  setup: Setup,
  bridge: { url: string; token: string },
  target: string,
  prefix: string,
  upstreamRequests: () => number,
): Promise<Phase> {
  let storeErrors = 0;
  const isolate = () => {
    if (setup === "none") return throttledFetch({ limit: "api" });
    const store = new HttpRedisCooldownStore({
      client: new Redis({ url: bridge.url, token: bridge.token }),
      prefix,
    });
    return throttledFetch({
      limit: "api",
      cooldown: {
        store,
        partitionSecret: SECRET,
        ...(setup === "timeout 250 ms" ? { storeTimeoutMs: 250 } : {}),
      },
      onEvent: (event) => {
        if (event.type === "store-error") storeErrors += 1;
      },
    });
  };
  const before = upstreamRequests();
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: ISOLATES }, async () => {
      const call = isolate();
      for (let i = 0; i < CALLS; i += 1) {
        const started = performance.now();
        await call(target, KEY).then(
          (response) => response.body?.cancel(),
          () => {},
        );
        times.push(performance.now() - started);
      }
    }),
  );
  const meanMs = times.reduce((sum, ms) => sum + ms, 0) / times.length;
  return { upstreamRequests: upstreamRequests() - before, meanMs, storeErrors };
}

function sum(phases: Phase[]): Phase {
  return {
    upstreamRequests: phases.reduce((n, phase) => n + phase.upstreamRequests, 0),
    meanMs: phases.reduce((n, phase) => n + phase.meanMs, 0) / phases.length,
    storeErrors: phases.reduce((n, phase) => n + phase.storeErrors, 0),
  };
}
const total = (phases: { penalty: Phase[]; success: Phase[] }) => ({
  penalty: sum(phases.penalty),
  success: sum(phases.success),
});
const added = (ms: number, base: number) => `${ms - base >= 0 ? "+" : ""}${(ms - base).toFixed(0)}`;

const redis = await startBenchRedis();
if (redis === undefined) {
  console.log("remote-store: no redis-server here and no REDIS_URL; nothing measured");
  process.exit(0);
}
const bridge = await startRestRedisBridge(redis.url);
const upstream = await startUpstream();
const rows: string[] = [];
let runs = 0;
// Warm-up, not printed: the first calls of a process load and compile what later calls reuse.
await phase(
  "store's own timeout",
  bridge,
  `${upstream.url}/ok`,
  "bench:warm-up:",
  upstream.requests,
);
await phase("none", bridge, `${upstream.url}/ok`, "bench:warm-up:", upstream.requests);
for (const latencyMs of LATENCIES_MS) {
  bridge.delayMs = latencyMs;
  const measured = new Map<Setup, { penalty: Phase[]; success: Phase[] }>(
    SETUPS.map((setup) => [setup, { penalty: [], success: [] }]),
  );
  // Rounds interleave the setups, so that a busy moment of the machine falls on all of them.
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const setup of SETUPS) {
      runs += 1;
      const prefix = `bench:${process.pid}:${runs}:`;
      const into = measured.get(setup) as { penalty: Phase[]; success: Phase[] };
      into.penalty.push(
        await phase(setup, bridge, `${upstream.url}/penalty`, prefix, upstream.requests),
      );
      // Its own keys: the penalty's cooldown must not answer the success phase.
      into.success.push(
        await phase(setup, bridge, `${upstream.url}/ok`, `${prefix}ok:`, upstream.requests),
      );
    }
  }
  const none = total(measured.get("none") as { penalty: Phase[]; success: Phase[] });
  for (const [setup, phases] of measured) {
    const { penalty, success } = total(phases);
    rows.push(
      `| ${latencyMs} ms | ${setup} | ${penalty.upstreamRequests} of ${ROUNDS * ISOLATES * CALLS} | ` +
        `${none.penalty.upstreamRequests - penalty.upstreamRequests} | ${added(penalty.meanMs, none.penalty.meanMs)} | ` +
        `${added(success.meanMs, none.success.meanMs)} | ${penalty.storeErrors + success.storeErrors} |`,
    );
  }
}
console.log(
  `remote-store: ${ROUNDS} rounds × ${ISOLATES} isolates × ${CALLS} calls per phase, one server-wide key; ms are the mean per call against no cooldown in the same run; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
);
console.log(
  "| store latency | cooldown | upstream requests in a penalty | saved | added ms per call, penalty | added ms per call, success | store errors |",
);
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
await bridge.close();
upstream.server.close();
redis.stop();
