// Cold import: how long `import("mcp-upstream-throttle")` takes in a fresh Node process, the
// median of 20 processes per entry, against `zod/v4` alone for scale. Run by `npm run bench`
// after the build, on the built package in dist/.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const PROCESSES = 20;

/** Milliseconds one fresh process spends importing `specifier` (resolved from the repo root). */
function importMs(specifier: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
  });
  return Number(out);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Prints the table; returns the main entry's median in milliseconds. */
export function benchColdImport(): number {
  const dist = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;
  const entries: [string, string][] = [
    ["mcp-upstream-throttle (main entry)", dist("index.js")],
    ["mcp-upstream-throttle/client", dist("client/index.js")],
    ["mcp-upstream-throttle/zod", dist("zod.js")],
    ["zod/v4 alone (reference)", "zod/v4"],
    ["ky (reference: bench/weight.ts takes the two in turn)", "ky"],
  ];
  console.log(`\ncold import: median of ${PROCESSES} fresh processes`);
  let main = Number.NaN;
  for (const [name, specifier] of entries) {
    const times: number[] = [];
    for (let i = 0; i < PROCESSES; i += 1) times.push(importMs(specifier));
    const ms = median(times);
    if (Number.isNaN(main)) main = ms;
    console.log(`  ${name.padEnd(37)}${ms.toFixed(1).padStart(7)} ms`);
  }
  return main;
}
