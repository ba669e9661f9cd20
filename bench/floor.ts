// A small part of the bench alone, to see how far the measurement can be trusted: the success
// path of raw fetch against throttledFetch (built dist/), three cases a cycle with the A/A twin,
// at C=1 and C=16, in the order `measure.ts` takes (shuffled, or `BENCH_ORDER=rotate` for the
// old rotation). Prints each figure with its A/A floor. `npx tsx bench/floor.ts`.

import { change, micro, PAIRED_CALLS, paired, pairedConcurrent, startUpstream } from "./measure.js";

const built = process.env.BENCH_LIBRARY ?? new URL("../dist/index.js", import.meta.url).href;
const { throttledFetch } = (await import(built)) as typeof import("../src/index.js");
const upstream = await startUpstream();
try {
  const ok = `${upstream.url}/ok?q=q`;
  const wrapped = throttledFetch({ limit: "search" });
  const cases = {
    "raw fetch": async () => (await fetch(ok)).arrayBuffer(),
    throttledFetch: async () => (await wrapped(ok)).arrayBuffer(),
  };
  console.log(`success path, ${PAIRED_CALLS} calls at C=1, 150 rounds at C=16`);
  for (const callers of [1, 16]) {
    const result =
      callers === 1 ? await paired(cases) : await pairedConcurrent(cases, callers, 150);
    const base = result["raw fetch"] ?? Number.NaN;
    const ns = result.throttledFetch ?? Number.NaN;
    console.log(
      `  throttledFetch, C=${callers}`.padEnd(30) +
        `${micro(ns)}   ${change(ns, base)} vs raw fetch`,
    );
  }
} finally {
  upstream.stop();
}
