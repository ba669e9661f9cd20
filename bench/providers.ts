// The success-path opt-ins of throttledFetch and throttleInterceptor (issue 21: "benchmark the
// opt-in"). Detection on the providers' header sets is bench/detect.ts. Registered in
// bench/index.ts; run alone on the sources with
//   npx tsx bench/providers.ts [--before <another checkout>/src/index.ts]
// (so that two checkouts can be compared, before → after, in the same way).

import { Agent, type Dispatcher, request } from "undici";
import { change, micro, PAIRED_CALLS, paired, startUpstream } from "./measure.js";

type Library = typeof import("../src/index.js");

/**
 * The success path with the opt-ins, against the default, for throttledFetch and for
 * throttleInterceptor: GitHub GraphQL's header gate (`x-ratelimit-remaining: 0`, which a response
 * with quota left fails, so nothing is read), the gate with pre-emption, and reading every body.
 * Each against the raw call in the same run, the cases interleaved call by call.
 */
export async function benchSuccessBody(library: Library, okUrl: string, before?: Library) {
  const gate = (header: (name: string) => string | undefined) =>
    header("x-ratelimit-remaining") === "0";
  const cooldown = { store: new library.MemoryCooldownStore() };
  const plain = library.throttledFetch({ limit: "graphql" });
  const gated = library.throttledFetch({ limit: "graphql", inspectSuccessBody: gate });
  const preempting = library.throttledFetch({
    limit: "graphql",
    inspectSuccessBody: gate,
    cooldown,
    preemptSpentQuota: true,
  });
  const every = library.throttledFetch({ limit: "graphql", inspectSuccessBody: true });
  const plainBefore = before?.throttledFetch({ limit: "graphql" });
  const fetchResults = await paired({
    "raw fetch": async () => (await fetch(okUrl)).arrayBuffer(),
    "throttledFetch()": async () => (await plain(okUrl)).arrayBuffer(),
    ...(plainBefore && {
      "throttledFetch() before": async () => (await plainBefore(okUrl)).arrayBuffer(),
    }),
    gate: async () => (await gated(okUrl)).arrayBuffer(),
    "gate + preemptSpentQuota": async () => (await preempting(okUrl)).arrayBuffer(),
    "inspectSuccessBody: true": async () => (await every(okUrl)).arrayBuffer(),
  });

  const agents: Agent[] = [];
  const dispatcher = (options?: Parameters<Library["throttleInterceptor"]>[0], from = library) => {
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    agents.push(agent);
    return options === undefined ? agent : agent.compose(from.throttleInterceptor(options));
  };
  const bare = dispatcher();
  const intercepted = dispatcher({ limit: "graphql" });
  const interceptGated = dispatcher({ limit: "graphql", inspectSuccessBody: gate });
  const interceptPreempting = dispatcher({
    limit: "graphql",
    inspectSuccessBody: gate,
    cooldown: { store: new library.MemoryCooldownStore() },
    preemptSpentQuota: true,
  });
  const interceptEvery = dispatcher({ limit: "graphql", inspectSuccessBody: true });
  const call = (via: Dispatcher) => async () =>
    (await request(okUrl, { dispatcher: via })).body.arrayBuffer();
  const interceptedBefore = before && dispatcher({ limit: "graphql" }, before);
  const interceptorResults = await paired({
    "raw undici.request": call(bare),
    "throttleInterceptor()": call(intercepted),
    ...(interceptedBefore && { "throttleInterceptor() before": call(interceptedBefore) }),
    gate: call(interceptGated),
    "gate + preemptSpentQuota": call(interceptPreempting),
    "inspectSuccessBody: true": call(interceptEvery),
  });
  for (const agent of agents) await agent.close();
  return { fetch: fetchResults, interceptor: interceptorResults };
}

export function printSuccessBody(results: {
  fetch: Record<string, number>;
  interceptor: Record<string, number>;
}): void {
  console.log(
    `\nsuccess-path opt-ins: median of ${PAIRED_CALLS} sequential calls, interleaved, vs the raw call`,
  );
  for (const [wrapper, rows] of Object.entries(results)) {
    const [rawName, base] = Object.entries(rows)[0] ?? ["raw", Number.NaN];
    console.log(`  ${wrapper}`);
    for (const [name, ns] of Object.entries(rows)) {
      const note = name === rawName ? "" : `${change(ns, base)} vs ${rawName}`;
      console.log(`    ${name.padEnd(26)}${micro(ns)}   ${note}`);
    }
  }
  // The question of issue 21: does the default stay where it was, and what does opting in cost?
  const fetchDefault = results.fetch["throttledFetch()"] ?? Number.NaN;
  const interceptorDefault = results.interceptor["throttleInterceptor()"] ?? Number.NaN;
  console.log(
    `  default success path: throttledFetch ${change(fetchDefault, results.fetch["raw fetch"] ?? Number.NaN)} vs raw fetch, ` +
      `throttleInterceptor ${change(interceptorDefault, results.interceptor["raw undici.request"] ?? Number.NaN)} vs raw undici.request`,
  );
  const fetchBefore = results.fetch["throttledFetch() before"];
  const interceptorBefore = results.interceptor["throttleInterceptor() before"];
  if (fetchBefore !== undefined && interceptorBefore !== undefined) {
    console.log(
      `  default success path vs before: throttledFetch ${change(fetchDefault, fetchBefore)}, ` +
        `throttleInterceptor ${change(interceptorDefault, interceptorBefore)}`,
    );
  }
  console.log(
    `  gate + pre-emption vs the default: throttledFetch ${change(results.fetch["gate + preemptSpentQuota"] ?? Number.NaN, fetchDefault)}, ` +
      `throttleInterceptor ${change(results.interceptor["gate + preemptSpentQuota"] ?? Number.NaN, interceptorDefault)}`,
  );
}

// Alone: the sources of this checkout, the success path against the loopback upstream.
if (import.meta.url === `file://${process.argv[1]}`) {
  const library = (await import("../src/index.js")) as Library;
  {
    // `--before <path to another checkout's src/index.ts>`: its defaults in the same run.
    const at = process.argv.indexOf("--before");
    const path = at === -1 ? undefined : process.argv[at + 1];
    const before = path === undefined ? undefined : ((await import(path)) as Library);
    const upstream = await startUpstream();
    try {
      printSuccessBody(await benchSuccessBody(library, `${upstream.url}/ok?q=q`, before));
    } finally {
      upstream.stop();
    }
  }
}

/** The section, printed: the line bench/index.ts runs. */
export async function benchProviders(library: Library, okUrl: string): Promise<void> {
  printSuccessBody(await benchSuccessBody(library, okUrl));
}
