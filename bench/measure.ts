// How the benchmarks measure: paired and interleaved in a random order, each comparison with its
// A/A floor, medians, rates. No assertion anywhere.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const PAIRED_CALLS = Number(process.env.BENCH_CALLS ?? 4000);
export const CONCURRENCY = 16;
export const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 4000);

/** The loopback upstream, in its own process so its work does not share our event loop. */
export async function startUpstream(): Promise<{ url: string; stop: () => void }> {
  const script = fileURLToPath(new URL("./upstream.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (data: Buffer) => resolve(data.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the upstream exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.stdin.end() };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? Number.NaN;
  return ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/**
 * The order the cases take within each cycle: shuffled afresh every cycle from a seeded
 * generator (printed once, `BENCH_SEED` repeats it), so that no case always runs right after
 * the same neighbour. Rotating `(call + turn) % n` did that with three cases or more: each
 * case always followed the same one, and a wrapper read 8–10 % faster than the bare call it
 * wraps. `BENCH_ORDER=rotate` brings the old order back, to compare.
 */
const ROTATE = process.env.BENCH_ORDER === "rotate";
const SEED = Number(process.env.BENCH_SEED ?? Math.floor(Math.random() * 2 ** 31));
let state = SEED >>> 0;
let seedPrinted = false;

/** mulberry32: a small seeded generator, enough to shuffle. */
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}

/** The order of `n` cases in cycle `cycle`. */
function order(n: number, cycle: number): number[] {
  if (!seedPrinted) {
    seedPrinted = true;
    console.log(
      ROTATE
        ? "(case order: rotated each cycle, BENCH_ORDER=rotate)"
        : `(case order: shuffled each cycle, seed ${SEED}; BENCH_SEED=${SEED} repeats it)`,
    );
  }
  const indices = Array.from({ length: n }, (_, index) => index);
  if (ROTATE) return indices.map((index) => (cycle + index) % n);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [indices[i], indices[j]] = [indices[j] ?? 0, indices[i] ?? 0];
  }
  return indices;
}

/** Beyond this A/A floor a comparison says nothing: its figures are not printed. */
export const FLOOR_LIMIT = 0.2;
/**
 * With 128 callers in flight the floor is tighter: a figure there is about a few percent, and
 * its rounds are few, so a floor past ±5 % drowns it (they read ±14–20 % on a shared machine).
 */
export const CROWD_FLOOR_LIMIT = 0.05;
/** From this many callers in flight, `CROWD_FLOOR_LIMIT` applies. */
export const CROWD = 128;
const floors = new Map<number, { floor: number; limit: number }>();

/**
 * The A/A floor of a comparison whose baseline measured `base` ns: the baseline against a twin
 * of itself, taking turns with the other cases, as a fraction (0.01: the twin read 1 % slower).
 * A difference between cases smaller than the floor is noise.
 */
export function floorOf(base: number): number | undefined {
  return floors.get(base)?.floor;
}

/** True when the floor of `base` is too wide for any figure against it to mean something. */
export function tooNoisy(base: number): boolean {
  const known = floors.get(base);
  return known !== undefined && Math.abs(known.floor) >= known.limit;
}

/** Runs the cases with the first one's twin added; prints and records the A/A floor. */
async function withFloor(
  cases: Record<string, () => Promise<unknown>>,
  measure: (entries: [string, () => Promise<unknown>][]) => Promise<number[][]>,
  label: string,
  limit = FLOOR_LIMIT,
): Promise<Record<string, number>> {
  const entries = Object.entries(cases);
  const [first] = entries;
  if (first !== undefined) entries.push([`${first[0]} (A/A)`, first[1]]);
  const samples = await measure(entries);
  const medians = samples.map((values) => median(values));
  const base = medians[0] ?? Number.NaN;
  const twin = medians.at(-1) ?? Number.NaN;
  const floor = twin / base - 1;
  floors.set(base, { floor, limit });
  const wide =
    Math.abs(floor) >= limit
      ? `: wider than ±${(limit * 100).toFixed(0)} %, no figure printed`
      : "";
  console.log(
    `    (A/A floor ${label}: ${first?.[0]} against itself ${(floor * 100).toFixed(1)} %${wide})`,
  );
  return Object.fromEntries(
    entries.slice(0, -1).map(([name], index) => [name, medians[index] ?? Number.NaN]),
  );
}

/**
 * The I/O comparisons. The cases take turns call by call, in a fresh random order each cycle,
 * so drift in the loopback, the pools and the collector falls on all of them alike. Measured one
 * block after another instead (as a benchmark library does), the same `fetch` differed from
 * itself by up to 16 % here, which drowns a 2 % question. The first case is the baseline; a
 * twin of it runs too, and the difference between the two (the A/A floor) is printed. Returns
 * the median per call in ns, warm-up dropped.
 */
export async function paired(
  cases: Record<string, () => Promise<unknown>>,
  calls = PAIRED_CALLS,
): Promise<Record<string, number>> {
  return withFloor(
    cases,
    async (entries) => {
      const samples: number[][] = entries.map(() => []);
      const warmup = Math.floor(calls / 10);
      for (let call = 0; call < calls + warmup; call += 1) {
        for (const index of order(entries.length, call)) {
          const started = process.hrtime.bigint();
          await entries[index]?.[1]();
          if (call >= warmup) samples[index]?.push(Number(process.hrtime.bigint() - started));
        }
      }
      return samples;
    },
    "at C=1",
  );
}

/**
 * The same with `callers` calls in flight: rounds of `callers` concurrent calls, the cases taking
 * turns round by round in a fresh random order. Returns the median latency of one call in ns.
 */
export async function pairedConcurrent(
  cases: Record<string, () => Promise<unknown>>,
  callers: number,
  rounds: number,
): Promise<Record<string, number>> {
  return withFloor(
    cases,
    async (entries) => {
      const samples: number[][] = entries.map(() => []);
      const warmup = Math.max(2, Math.floor(rounds / 10));
      for (let round = 0; round < rounds + warmup; round += 1) {
        for (const index of order(entries.length, round)) {
          const call = entries[index]?.[1];
          if (call === undefined) continue;
          const latencies = await Promise.all(
            Array.from({ length: callers }, async () => {
              const started = process.hrtime.bigint();
              await call();
              return Number(process.hrtime.bigint() - started);
            }),
          );
          if (round >= warmup) samples[index]?.push(...latencies);
        }
      }
      return samples;
    },
    `at C=${callers}`,
    callers >= CROWD ? CROWD_FLOOR_LIMIT : FLOOR_LIMIT,
  );
}

/** Calls per second with CONCURRENCY calls in flight (after a warm-up run). */
export async function perSecond(call: () => Promise<unknown>): Promise<number> {
  const run = async (total: number) => {
    let started = 0;
    const worker = async () => {
      while (started < total) {
        started += 1;
        await call();
      }
    };
    const begin = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return (total / (performance.now() - begin)) * 1000;
  };
  await run(Math.ceil(THROUGHPUT_CALLS / 4));
  return run(THROUGHPUT_CALLS);
}

export const micro = (ns: number) => `${(ns / 1000).toFixed(1).padStart(7)} µs`;
/** `ns / base`, or a dash where the A/A floor of `base` is too wide to tell. */
export const ratio = (ns: number, base: number) =>
  tooNoisy(base) ? "  —  " : (ns / base).toFixed(3);
/** The change from `base` in percent, or a dash where the A/A floor of `base` is too wide. */
export const change = (ns: number, base: number) =>
  tooNoisy(base) ? "    — " : `${((ns / base - 1) * 100).toFixed(1).padStart(5)} %`;
export const rate = (perSec: number) =>
  `${Math.round(perSec).toLocaleString("en-US").padStart(11)} /s`;
