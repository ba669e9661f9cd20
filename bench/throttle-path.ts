// The throttle path where a busy server lives (issue 23): a throttle read whole against the raw
// call reading the same 429 and its body, with and without credentials; cooldown hits with
// credentials against hits without (detection alone is bench/detect.ts). Ratios from the same
// run, cases interleaved, each throttle ratio beside its floor (a raw read that parses the body and
// throws an Error). Asserts nothing.

import { pathToFileURL } from "node:url";
import { do_not_optimize } from "mitata";
import { Agent, request } from "undici";
import { micro, paired, pairedConcurrent, startUpstream, tooNoisy } from "./measure.js";

type Library = typeof import("../src/index.js");

const KEY = "sk-proj-BenchKey0123456789abcdefghijklmnopqrstuvwxyzABCDEF";
const WITH_KEY = { headers: { authorization: `Bearer ${KEY}` } };

export interface ThrottlePathFigures {
  /** name → ours / raw throughput (1 = as fast as the raw call). */
  ratios: [string, number][];
}

export async function benchThrottlePath(
  library: Library,
  base: string,
): Promise<ThrottlePathFigures> {
  const { throttledFetch, throttleInterceptor } = library;
  const throttled = `${base}/throttled`;
  const swallow = (promise: Promise<unknown>) => promise.then(do_not_optimize, do_not_optimize);
  const agents = [new Agent({ keepAliveTimeout: 60_000 }), new Agent({ keepAliveTimeout: 60_000 })];
  const [bare, composed] = agents as [Agent, Agent];
  const intercepted = composed.compose(throttleInterceptor({ limit: "search" }));
  const wrapped = throttledFetch({ limit: "search" });
  const ratios: [string, number][] = [];

  console.log("\nthrottle path: a 429 and its body, read whole (median latency, interleaved)");
  for (const [label, init] of [
    ["no credentials", undefined],
    ["Authorization", WITH_KEY],
  ] as const) {
    for (const callers of [1, 16]) {
      const raw = () => fetch(throttled, init).then((response) => response.text());
      const cases = {
        raw,
        ours: () => swallow(wrapped(throttled, init)),
        floor: () => swallow(raw().then(throwParsed)),
      };
      const result =
        callers === 1 ? await paired(cases, 2000) : await pairedConcurrent(cases, callers, 150);
      const ratio = (result.raw ?? Number.NaN) / (result.ours ?? Number.NaN);
      const floor = (result.raw ?? Number.NaN) / (result.floor ?? Number.NaN);
      const name = `throttledFetch 429, ${label}, C=${callers}`;
      if (tooNoisy(result.raw ?? Number.NaN)) continue;
      ratios.push([name, ratio]);
      console.log(
        `  ${name.padEnd(46)}${micro(result.ours ?? Number.NaN)}   ${ratio.toFixed(3)}× raw fetch (${micro(result.raw ?? Number.NaN)}); floor ${floor.toFixed(3)}×`,
      );
    }
  }
  for (const callers of [1, 16]) {
    const raw = () =>
      request(throttled, { dispatcher: bare }).then((response) => response.body.text());
    const cases = {
      raw,
      ours: () => swallow(request(throttled, { dispatcher: intercepted })),
      floor: () => swallow(raw().then(throwParsed)),
    };
    const result =
      callers === 1 ? await paired(cases, 2000) : await pairedConcurrent(cases, callers, 150);
    const ratio = (result.raw ?? Number.NaN) / (result.ours ?? Number.NaN);
    const floor = (result.raw ?? Number.NaN) / (result.floor ?? Number.NaN);
    const name = `throttleInterceptor 429, C=${callers}`;
    if (tooNoisy(result.raw ?? Number.NaN)) continue;
    ratios.push([name, ratio]);
    console.log(
      `  ${name.padEnd(46)}${micro(result.ours ?? Number.NaN)}   ${ratio.toFixed(3)}× undici.request (${micro(result.raw ?? Number.NaN)}); floor ${floor.toFixed(3)}×`,
    );
  }

  console.log("\ncooldown hits: credentials against none (median latency, interleaved)");
  // A limit of their own: `cooldown: true` shares one store per process, and the other parts of
  // `npm run bench` must not find "search" cooling down.
  const plain = throttledFetch({ limit: "hits", cooldown: true });
  const keyed = throttledFetch({ limit: "hits", cooldown: true });
  await swallow(plain(throttled));
  await swallow(keyed(throttled, WITH_KEY));
  const hits = await paired(
    {
      without: () => swallow(plain(throttled)),
      with: () => swallow(keyed(throttled, WITH_KEY)),
    },
    5000,
  );
  const hitRatio = (hits.without ?? Number.NaN) / (hits.with ?? Number.NaN);
  ratios.push(["cooldown hits with credentials / without", hitRatio]);
  console.log(
    `  ${"without credentials".padEnd(46)}${micro(hits.without ?? Number.NaN)}\n  ${"with Authorization".padEnd(46)}${micro(hits.with ?? Number.NaN)}   ${hitRatio.toFixed(3)}× the rate without`,
  );

  await stagesInPlace(throttled, wrapped);
  for (const agent of agents) await agent.close();
  return { ratios };
}

/**
 * The floor beside each throttle ratio: what any wrapper that turns the same read into a thrown
 * `Error` pays at least (parse the body, make the error with its stack, reject). Whatever the
 * library does beyond that (credentials, detection, cleaning the words, the time bound) is the
 * gap between this floor and its own ratio.
 */
function throwParsed(text: string): never {
  throw new Error(String((JSON.parse(text) as { message?: unknown }).message));
}

/**
 * Where a throttle's time goes, measured in place: each stage after a real loopback read, paired
 * with the read alone. In place the library's steps cost several times what a hot loop says
 * (a 20 µs busy-wait after the read costs the call almost nothing; detection and an `Error`
 * touch code and data the network stack pushed out of the caches), so this is the breakdown
 * the ratio above is made of. Uses the source modules (the built package carries them inside its
 * bundles, where no single module can be imported).
 */
async function stagesInPlace(url: string, wrapped: typeof fetch): Promise<void> {
  const source = (path: string) => import(new URL(`../src/${path}`, import.meta.url).href);
  const { readThrottleBody } = (await source(
    "wrappers/read-body.js",
  )) as typeof import("../src/wrappers/read-body.js");
  const { detect } = (await source(
    "signals/detect.js",
  )) as typeof import("../src/signals/detect.js");
  const { errorFromSignal } = (await source(
    "errors/upstream-rate-limited-error.js",
  )) as typeof import("../src/errors/upstream-rate-limited-error.js");
  const { fetchCredentials } = (await source(
    "untrusted/credentials.js",
  )) as typeof import("../src/untrusted/credentials.js");
  const read = async () => {
    const response = await fetch(url);
    const read = await readThrottleBody(response, { treat503AsThrottle: false, timeoutMs: 1000 });
    return { response, body: read?.body };
  };
  const settings = (secrets = fetchCredentials(url, undefined, []).matcher()) => ({
    maxMs: 86_400_000,
    treat503AsThrottle: false,
    upstreamText: "sanitized" as const,
    secrets,
  });
  const signal = async (withBody: boolean) => {
    const { response, body } = await read();
    const wire = { status: response.status, headers: response.headers, body };
    return detect(withBody ? wire : { ...wire, body: undefined }, settings());
  };
  const cases = {
    read,
    "+ credentials": async () => {
      await read();
      return fetchCredentials(url, undefined, []).matcher();
    },
    "+ detection, headers only": () => signal(false),
    "+ detection with the body": () => signal(true),
    "+ the error": async () => {
      const found = await signal(true);
      if (found === undefined) throw new Error("the upstream's 429 was not detected");
      return errorFromSignal(found, { limit: "search", maxRetryAfterSeconds: 86_400 });
    },
    "read + new Error() (reference)": async () => {
      await read();
      return new Error("a reference");
    },
    "throttledFetch, whole": () => wrapped(url).then(do_not_optimize, do_not_optimize),
  };
  const result = await paired(cases, 1500);
  const base = result.read ?? Number.NaN;
  console.log("\nthe throttle path in place, C=1: each stage after a real read, vs the read alone");
  for (const [name, ns] of Object.entries(result)) {
    const delta = (ns - base) / 1000;
    const added =
      name === "read" ? "" : `   ${delta < 0 ? "−" : "+"}${Math.abs(delta).toFixed(1)} µs`;
    console.log(`  ${name.padEnd(46)}${micro(ns)}${added}`);
  }
}

/** The issue 23 goals this file measures, as lines for the targets table. */
export function throttlePathTargets(figures: ThrottlePathFigures): string[] {
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  const lines: string[] = [];
  for (const [name, value] of figures.ratios) {
    const floor = name.startsWith("throttleInterceptor")
      ? 0.9
      : name.startsWith("cooldown")
        ? 0.8
        : 0.95;
    lines.push(`  ${`${name} >= ${floor} (${value.toFixed(3)})`.padEnd(60)}${met(value >= floor)}`);
  }
  return lines;
}

// `tsx bench/throttle-path.ts`: this file alone, against the built package (`npm run build`).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = process.env.BENCH_LIBRARY ?? new URL("../dist/index.js", import.meta.url).href;
  const library = (await import(built)) as Library;
  const upstream = await startUpstream();
  const figures = await benchThrottlePath(library, upstream.url);
  console.log("\ntargets");
  for (const line of throttlePathTargets(figures)) console.log(line);
  upstream.stop();
  process.exit(0);
}
