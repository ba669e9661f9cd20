// The success-path opt-ins of throttledFetch (issue 21: "benchmark the opt-in"). Registered in
// bench/index.ts. Detection on the providers' header sets (issue 23 item 4) is bench/detect.ts.

import { change, micro, PAIRED_CALLS, paired } from "./measure.js";

type Library = typeof import("../src/index.js");

/**
 * The success path with the 2xx-body opt-in: the default, a header gate that says no (GitHub
 * GraphQL's `x-ratelimit-remaining: 0` on a response with quota left), and reading every body.
 */
export async function benchSuccessBody(library: Library, okUrl: string) {
  const plain = library.throttledFetch({ limit: "graphql" });
  const gated = library.throttledFetch({
    limit: "graphql",
    readSuccessBody: (header) => header("x-ratelimit-remaining") === "0",
  });
  const every = library.throttledFetch({ limit: "graphql", readSuccessBody: true });
  const results = await paired({
    "raw fetch": async () => (await fetch(okUrl)).arrayBuffer(),
    "throttledFetch()": async () => (await plain(okUrl)).arrayBuffer(),
    "readSuccessBody: gate": async () => (await gated(okUrl)).arrayBuffer(),
    "readSuccessBody: true": async () => (await every(okUrl)).arrayBuffer(),
  });
  return results;
}

export function printSuccessBody(results: Record<string, number>): void {
  const base = results["raw fetch"] ?? Number.NaN;
  console.log(
    `\nsuccess path with readSuccessBody: median of ${PAIRED_CALLS} sequential calls, interleaved`,
  );
  for (const [name, ns] of Object.entries(results)) {
    const note = name === "raw fetch" ? "" : `${change(ns, base)} vs raw fetch`;
    console.log(`  ${name.padEnd(24)}${micro(ns)}   ${note}`);
  }
}

/** The section, printed: the line bench/index.ts runs. */
export async function benchProviders(library: Library, okUrl: string): Promise<void> {
  printSuccessBody(await benchSuccessBody(library, okUrl));
}
