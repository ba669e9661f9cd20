// npm run bench: the cost of the wrappers against the raw calls, measured in one run against a
// loopback keep-alive upstream in its own process. Prints medians, ratios and rates; asserts
// nothing (figures are for people, not for CI to fail on).

import { cpus } from "node:os";
import ky from "ky";
import { do_not_optimize } from "mitata";
import { Agent, type Dispatcher, request } from "undici";
import { benchColdImport } from "./cold-import.js";
import { benchContended, contendedTargets } from "./contended.js";
import { benchCooldown } from "./cooldown.js";
import { benchDetect, detectTargets, printDetect } from "./detect.js";
import {
  CONCURRENCY,
  change,
  micro,
  PAIRED_CALLS,
  paired,
  perSecond,
  rate,
  startUpstream,
  THROUGHPUT_CALLS,
} from "./measure.js";
import { benchPeers } from "./peers.js";
import { benchProviders } from "./providers.js";
import { startBenchRedis } from "./redis.js";
import { benchThrottlePath, throttlePathTargets } from "./throttle-path.js";

// The built package, as users run it (`npm run bench` builds first); typed by its source.
const library = (await import(
  new URL("../dist/index.js", import.meta.url).href
)) as typeof import("../src/index.js");
const { throttledFetch, throttleInterceptor } = library;

async function main(): Promise<void> {
  const upstream = await startUpstream();
  const redis = await startBenchRedis();
  const ok = `${upstream.url}/ok?q=q`;
  const throttled = `${upstream.url}/throttled`;
  const agents: Dispatcher[] = [];
  const dispatcher = (intercept?: Parameters<Agent["compose"]>[0]) => {
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    agents.push(agent);
    return intercept ? agent.compose(intercept) : agent;
  };
  const wrappedFetch = throttledFetch({ limit: "search" });
  const api = ky.create({ retry: 0 });
  const bare = dispatcher();
  const noop = dispatcher((dispatch) => (options, handler) => dispatch(options, handler));
  const intercepted = dispatcher(throttleInterceptor({ limit: "search" }));
  const swallow = (promise: Promise<unknown>) => promise.then(do_not_optimize, do_not_optimize);

  console.log("mcp-upstream-throttle benchmark");
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores\n`,
  );

  const fetchPair = await paired({
    "raw fetch": async () => (await fetch(ok)).arrayBuffer(),
    throttledFetch: async () => (await wrappedFetch(ok)).arrayBuffer(),
  });
  const kyPair = await paired({
    "raw fetch": async () => (await fetch(ok)).arrayBuffer(),
    "ky.get": async () => (await api.get(ok)).arrayBuffer(),
  });
  const undiciTrio = await paired({
    "raw undici.request": async () => (await request(ok, { dispatcher: bare })).body.arrayBuffer(),
    "no-op interceptor": async () => (await request(ok, { dispatcher: noop })).body.arrayBuffer(),
    throttleInterceptor: async () =>
      (await request(ok, { dispatcher: intercepted })).body.arrayBuffer(),
  });
  const at = (results: Record<string, number>, name: string) => results[name] ?? Number.NaN;
  console.log(
    `success path: median of ${PAIRED_CALLS} sequential calls each, interleaved, keep-alive loopback`,
  );
  const fetchBase = at(fetchPair, "raw fetch");
  const kyBase = at(kyPair, "raw fetch");
  const requestBase = at(undiciTrio, "raw undici.request");
  const noopBase = at(undiciTrio, "no-op interceptor");
  const rows: [string, number, string][] = [
    ["raw fetch", fetchBase, ""],
    [
      "throttledFetch",
      at(fetchPair, "throttledFetch"),
      `${change(at(fetchPair, "throttledFetch"), fetchBase)} vs raw fetch`,
    ],
    [
      "ky.get (reference)",
      at(kyPair, "ky.get"),
      `${change(at(kyPair, "ky.get"), kyBase)} vs raw fetch (own pairing)`,
    ],
    ["raw undici.request", requestBase, ""],
    [
      "no-op interceptor",
      noopBase,
      `${change(noopBase, requestBase)} vs raw undici.request: compose's own cost`,
    ],
    [
      "throttleInterceptor",
      at(undiciTrio, "throttleInterceptor"),
      `${change(at(undiciTrio, "throttleInterceptor"), requestBase)} vs raw, ${change(at(undiciTrio, "throttleInterceptor"), noopBase)} vs no-op interceptor`,
    ],
  ];
  for (const [name, ns, note] of rows) console.log(`  ${name.padEnd(22)}${micro(ns)}   ${note}`);

  console.log(
    `\nthrottle path: responses per second, ${CONCURRENCY} in flight, ${THROUGHPUT_CALLS} calls`,
  );
  const throughput: [string, number][] = [
    ["raw fetch, 200 (reference)", await perSecond(() => fetch(ok).then((r) => r.arrayBuffer()))],
    ["throttledFetch, 429", await perSecond(() => swallow(wrappedFetch(throttled)))],
    [
      "raw undici.request, 200 (reference)",
      await perSecond(() => request(ok, { dispatcher: bare }).then((r) => r.body.arrayBuffer())),
    ],
    [
      "throttleInterceptor, 429",
      await perSecond(() => swallow(request(throttled, { dispatcher: intercepted }))),
    ],
  ];
  for (const [name, perSec] of throughput) console.log(`  ${name.padEnd(37)}${rate(perSec)}`);

  const detection = await benchDetect(library);
  printDetect(detection);

  const throttlePath = await benchThrottlePath(library, upstream.url);
  await benchProviders(library, ok);
  const cooldown = await benchCooldown(library, ok, redis?.url);
  const contended = await benchContended(library, upstream.url, redis?.url);
  await (await import("./redis-load.js")).benchRedisLoad(library, redis?.url);
  if (redis === undefined) console.log("\n(no redis-server here: the Redis rows were skipped)");

  await benchPeers(ok);
  const coldImportMs = benchColdImport();

  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  const fetchOverhead = at(fetchPair, "throttledFetch") / fetchBase - 1;
  const kyOverhead = at(kyPair, "ky.get") / kyBase - 1;
  const interceptorOverRaw = at(undiciTrio, "throttleInterceptor") / requestBase - 1;
  const interceptorOverNoop = at(undiciTrio, "throttleInterceptor") / noopBase - 1;
  const slowestThrottle = Math.min(throughput[1]?.[1] ?? 0, throughput[3]?.[1] ?? 0);
  console.log("\ntargets");
  console.log(
    `  throttledFetch <= 2 % over raw fetch, and below ky:  ${met(fetchOverhead <= 0.02 && fetchOverhead < kyOverhead)}`,
  );
  console.log(
    `  throttleInterceptor <= 2 % over raw undici.request:  ${met(interceptorOverRaw <= 0.02)}`,
  );
  console.log(
    `  throttleInterceptor <= 2 % over a no-op interceptor: ${met(interceptorOverNoop <= 0.02)}`,
  );
  console.log(
    `  throttle path >= 5,000 responses/s:                  ${met(slowestThrottle >= 5000)}`,
  );
  for (const line of throttlePathTargets(throttlePath)) console.log(line);
  for (const line of contendedTargets(contended)) console.log(line);
  for (const line of detectTargets(detection)) console.log(line);
  const cpuBase = cooldown.cpu[0]?.[1] ?? Number.NaN;
  for (const [name, ns] of cooldown.cpu.slice(1)) {
    const share = (ns - cpuBase) / fetchBase;
    console.log(
      `  ${`${name}: own CPU cost <= 2 % of a loopback fetch (${(share * 100).toFixed(3)} %)`.padEnd(60)}${met(share <= 0.02)}`,
    );
  }
  for (const [name, value] of cooldown.successRatios) {
    if (name.includes("GET per call")) continue; // the reference: today's behaviour without the view
    console.log(`  ${`${name} within 2 % of throttledFetch()`.padEnd(60)}${met(value <= 1.02)}`);
  }
  if (cooldown.propagationMs !== undefined) {
    console.log(
      `  ${"replica B honours replica A's throttle within 50 ms".padEnd(60)}${met(cooldown.propagationMs <= 50)}`,
    );
  }
  console.log(
    `  ${"a full memory store inserts in O(1) (within 2× of one with room)".padEnd(60)}${met(cooldown.evictionUs.full <= 2 * cooldown.evictionUs.empty)}`,
  );

  console.log(
    `  ${"main entry cold import <= 40 ms (median of 20 processes)".padEnd(60)}${met(coldImportMs <= 40)}`,
  );

  upstream.stop();
  redis?.stop();
  for (const agent of agents) await agent.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
