// How the benchmarks measure: paired and interleaved, medians, rates. No assertion anywhere.

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
 * The I/O comparisons. The cases take turns call by call, rotating who goes first, so drift in
 * the loopback, the pools and the collector falls on all of them alike. Measured one block after
 * another instead (as a benchmark library does), the same `fetch` differed from itself by up to
 * 16 % here, which drowns a 2 % question. Returns the median per call in ns, warm-up dropped.
 */
export async function paired(
  cases: Record<string, () => Promise<unknown>>,
  calls = PAIRED_CALLS,
): Promise<Record<string, number>> {
  const entries = Object.entries(cases);
  const samples: number[][] = entries.map(() => []);
  const warmup = Math.floor(calls / 10);
  for (let call = 0; call < calls + warmup; call += 1) {
    for (let turn = 0; turn < entries.length; turn += 1) {
      const index = (call + turn) % entries.length;
      const started = process.hrtime.bigint();
      await entries[index]?.[1]();
      if (call >= warmup) samples[index]?.push(Number(process.hrtime.bigint() - started));
    }
  }
  return Object.fromEntries(entries.map(([name], index) => [name, median(samples[index] ?? [])]));
}

/**
 * The same with `callers` calls in flight: rounds of `callers` concurrent calls, the cases taking
 * turns round by round. Returns the median latency of one call in ns.
 */
export async function pairedConcurrent(
  cases: Record<string, () => Promise<unknown>>,
  callers: number,
  rounds: number,
): Promise<Record<string, number>> {
  const entries = Object.entries(cases);
  const samples: number[][] = entries.map(() => []);
  const warmup = Math.max(2, Math.floor(rounds / 10));
  for (let round = 0; round < rounds + warmup; round += 1) {
    for (let turn = 0; turn < entries.length; turn += 1) {
      const index = (round + turn) % entries.length;
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
  return Object.fromEntries(entries.map(([name], index) => [name, median(samples[index] ?? [])]));
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
export const ratio = (ns: number, base: number) => (ns / base).toFixed(3);
export const change = (ns: number, base: number) =>
  `${((ns / base - 1) * 100).toFixed(1).padStart(5)} %`;
export const rate = (perSec: number) =>
  `${Math.round(perSec).toLocaleString("en-US").padStart(11)} /s`;
