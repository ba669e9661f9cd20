// Cold import: how long `import("mcp-upstream-throttle")` takes in a fresh Node process, the
// median of 20 processes per entry, beside ky (a fetch wrapper of the same kind) and `zod/v4`
// alone (what the "./zod" entry cannot do without), all taken in turn, one process each per
// turn, so that a slow moment of the shared machine lands on every entry alike. Run by
// `npm run bench` after the build, on the built package in dist/.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const PROCESSES = 20;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Milliseconds one fresh process spends importing `specifier` (resolved from the repo root). */
export function importMs(specifier: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return Number(out);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * The median import time of each `[name, specifier]`, `processes` fresh processes each, taken
 * in turn (round-robin over the entries).
 */
export function coldImports(entries: [string, string][], processes: number): Map<string, number> {
  const times = new Map<string, number[]>(entries.map(([name]) => [name, []]));
  for (let turn = 0; turn < processes; turn += 1)
    for (const [name, specifier] of entries) times.get(name)?.push(importMs(specifier));
  return new Map([...times].map(([name, values]) => [name, median(values)]));
}

/** Prints the table; returns the main entry's median in milliseconds. */
export function benchColdImport(): number {
  const entries: [string, string][] = [
    ["mcp-upstream-throttle (main entry)", "./dist/index.js"],
    ["mcp-upstream-throttle/client", "./dist/client/index.js"],
    ["mcp-upstream-throttle/zod", "./dist/zod.js"],
    ["zod/v4 alone (reference)", "zod/v4"],
    ["ky (reference)", "ky"],
  ];
  const medians = coldImports(entries, PROCESSES);
  const ky = medians.get("ky (reference)") ?? Number.NaN;
  console.log(`\ncold import: median of ${PROCESSES} fresh processes each, taken in turn`);
  for (const [name] of entries) {
    const ms = medians.get(name) ?? Number.NaN;
    console.log(`  ${name.padEnd(37)}${ms.toFixed(1).padStart(7)} ms  ×${(ms / ky).toFixed(2)} ky`);
  }
  return medians.get("mcp-upstream-throttle (main entry)") ?? Number.NaN;
}
