// The fault suite's upstream and its bookkeeping: random 1 s penalties per partition, answered
// with `retry-after-ms`; every request that reached it inside an active penalty, and every answer
// the replicas reported, so that a window of time can be measured.

import { createServer, type Server } from "node:http";

export const PENALTY_MS = 1000;
const PENALTY_CHANCE = 0.03;
export const UPSTREAM_MS = 50;
/** A cooldown answer this long after its penalty ended is a wrong lock-out. */
const LATE_MS = 250;

export const at = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per partition, its penalties: [start, end]. */
const intervals = new Map<number, [number, number][]>();
const intoPenalty: number[] = [];
/** [outcome, partition, at, ms]: 0 ok, 1 throttle from the upstream, 2 cooldown, 3 other error. */
export type Answer = [number, number, number, number];
export const records: Answer[] = [];

export function upstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const partition = Number(/tenant-(\d+)/.exec(req.headers.authorization ?? "")?.[1] ?? -1);
    const now = at();
    const list = intervals.get(partition) ?? [];
    const current = list[list.length - 1];
    if (current !== undefined && now < current[1]) {
      intoPenalty.push(now);
      res.writeHead(429, { "retry-after-ms": String(Math.ceil(current[1] - now)) });
      return res.end();
    }
    if (Math.random() < PENALTY_CHANCE) {
      list.push([now, now + PENALTY_MS]);
      intervals.set(partition, list);
      res.writeHead(429, { "retry-after-ms": String(PENALTY_MS) });
      return res.end();
    }
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    }, UPSTREAM_MS);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export interface Measured {
  calls: number;
  wrong: number;
  worstLateMs: number;
  intoPenalty: number;
  p50: number;
  p99: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

/** Calls into penalties between `from` and `to`. */
export function penaltiesBetween(from: number, to: number): number {
  return intoPenalty.filter((when) => when >= from && when < to).length;
}

export function measure(from: number, to: number): Measured {
  const inWindow = records.filter((record) => record[2] >= from && record[2] < to);
  const successes = inWindow
    .filter((record) => record[0] === 0)
    .map((record) => record[3])
    .sort((a, b) => a - b);
  let wrong = 0;
  let worstLateMs = 0;
  for (const [outcome, partition, when] of inWindow) {
    if (outcome !== 2) continue;
    const list = intervals.get(partition) ?? [];
    if (list.some(([start, end]) => when >= start && when <= end + LATE_MS)) continue;
    wrong += 1;
    const lastEnd = Math.max(...list.filter(([start]) => start <= when).map(([, end]) => end));
    worstLateMs = Math.max(worstLateMs, when - lastEnd);
  }
  return {
    calls: inWindow.length,
    wrong,
    worstLateMs,
    intoPenalty: penaltiesBetween(from, to),
    p50: percentile(successes, 50),
    p99: percentile(successes, 99),
    errors: inWindow.filter((record) => record[0] === 3).length,
  };
}
