// Detection on the providers' own header sets, and the success-path opt-ins of throttledFetch
// (issue 21: "benchmark the opt-in"; issue 23 item 4: detectThrottle on header-only sets).
// Registered in bench/index.ts; run alone on the sources with
//   npx tsx bench/providers.ts
// (so that two checkouts can be compared, before → after, in the same way).

import { do_not_optimize, measure } from "mitata";
import { change, micro, PAIRED_CALLS, paired, rate } from "./measure.js";

type Library = typeof import("../src/index.js");

/** The header-only sets of issue 23 item 4, as each provider documents them. */
export function headerSets(now: Date) {
  const epoch = (offset: number) => String(Math.floor(now.getTime() / 1000) + offset);
  return {
    "GitHub 403 (epoch reset, Date skew check)": {
      status: 403,
      headers: {
        "content-type": "application/json; charset=utf-8",
        date: now.toUTCString(),
        "x-github-request-id": "C8A4:2F3B:1A2B3C:1B2C3D:675A1B2C",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": epoch(600),
        "x-ratelimit-resource": "core",
        "x-ratelimit-used": "5000",
      },
    },
    "IETF 429 (RateLimit structured field)": {
      status: 429,
      headers: {
        "content-type": "application/json",
        date: now.toUTCString(),
        "ratelimit-policy": '"burst";q=100;w=60, "daily";q=1000;w=86400',
        ratelimit: '"burst";r=0;t=30, "daily";r=900;t=40000',
      },
    },
    "OpenAI 429 (Go-duration resets)": {
      status: 429,
      headers: {
        "content-type": "application/json",
        date: now.toUTCString(),
        "x-ratelimit-limit-requests": "60",
        "x-ratelimit-limit-tokens": "150000",
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-remaining-tokens": "149984",
        "x-ratelimit-reset-requests": "6m0s",
        "x-ratelimit-reset-tokens": "12ms",
      },
    },
  };
}

/** detectThrottle per second on each header-only set (mitata, median). */
export async function benchDetect(library: Library): Promise<[string, number][]> {
  const rows: [string, number][] = [];
  for (const [name, response] of Object.entries(headerSets(new Date()))) {
    const stats = await measure(() => do_not_optimize(library.detectThrottle(response)));
    rows.push([name, 1e9 / stats.p50]);
  }
  return rows;
}

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

export function printDetect(rows: readonly [string, number][]): void {
  console.log("\ndetectThrottle on header-only sets: pure, plain-object headers (mitata, median)");
  for (const [name, perSec] of rows) console.log(`  ${name.padEnd(42)}${rate(perSec)}`);
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

// Alone: the sources of this checkout, detection only (no upstream needed).
if (import.meta.url === `file://${process.argv[1]}`) {
  const library = (await import("../src/index.js")) as Library;
  printDetect(await benchDetect(library));
}

/** Both sections, printed: the line bench/index.ts runs. */
export async function benchProviders(library: Library, okUrl: string): Promise<void> {
  printDetect(await benchDetect(library));
  printSuccessBody(await benchSuccessBody(library, okUrl));
}
