// The fault suite's upstream and its bookkeeping: random 1 s penalties per partition, answered
// with `retry-after-ms`; every 429 it sent, every request that reached it inside an active
// penalty, and every answer the replicas reported, so that a window of time can be measured.
//
// Two judgements of a cooldown answer. A *wrong lock-out* is one no throttle can account for,
// whatever the machine's load: a partition the upstream never throttled before it, or an end
// (the call's start plus the time left it gave, the earliest the answer can have been decided)
// more than a second later than every throttle of that partition a replica had received allows
// (the moment that throttle's call returned plus the delay it carried). A *late* answer is one given more than
// 250 ms after the upstream's penalty ended: a replica measures a delay from when it reads the
// 429, so an event loop that lags (a flood, a loaded machine) makes answers late without any
// defect; it is printed, not judged.

import { createServer, type Server } from "node:http";

export const PENALTY_MS = 1000;
const PENALTY_CHANCE = 0.03;
export const UPSTREAM_MS = 50;
/** A cooldown answer this long after its penalty ended is late (a timing goal). */
const LATE_MS = 250;
/**
 * How far past every throttle's own end an answer may claim to last and still be accounted for.
 * An announcement from a replica whose wall clock is wrong is capped only by the time left it
 * carried, counted from when the receiver reads it (less its estimate of the channel's delay),
 * so under load a receiver's end passes the sender's by that message's extra delay: tens of ms
 * on loopback. A defect this suite is built to find (a clock step or skew leaking through, an
 * end outliving its key, another partition's cooldown, a forged one) is seconds, or has no
 * throttle at all.
 */
const SLACK_MS = 1000;
/** A 429 older than this cannot account for an answer (penalties are 1 s). */
const RECENT_MS = 5000;

/**
 * The suite's clock, milliseconds: the system's monotonic clock (`CLOCK_MONOTONIC`), the same in
 * every process of the machine. `performance.timeOrigin` is read from the wall clock when each
 * process starts, so two processes' `timeOrigin + now()` differ by however far the wall clock
 * was slewed between their starts: a replica started mid-run would disagree with the upstream.
 */
export const at = () => Number(process.hrtime.bigint()) / 1e6;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per partition, its penalties: [start, end]. */
const intervals = new Map<number, [number, number][]>();
const intoPenalty: number[] = [];
/** Per partition, when the upstream sent it a 429. */
const throttled = new Map<number, number[]>();
/**
 * [outcome, partition, at, ms, left]: 0 ok, 1 throttle from the upstream, 2 cooldown, 3 other
 * error; `at` when the call returned, `ms` how long it took, `left` the delay it was answered with.
 */
export type Answer = [number, number, number, number, number];
export const records: Answer[] = [];

export function upstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const partition = Number(/tenant-(\d+)/.exec(req.headers.authorization ?? "")?.[1] ?? -1);
    const now = at();
    const list = intervals.get(partition) ?? [];
    const current = list[list.length - 1];
    const sent = () => {
      const times = throttled.get(partition) ?? [];
      times.push(now);
      throttled.set(partition, times);
    };
    if (current !== undefined && now < current[1]) {
      sent();
      intoPenalty.push(now);
      res.writeHead(429, { "retry-after-ms": String(Math.ceil(current[1] - now)) });
      return res.end();
    }
    if (Math.random() < PENALTY_CHANCE) {
      sent();
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
  /** Cooldown answers no throttle accounts for (deterministic). */
  wrong: number;
  /** How far the worst of them claimed to last past every throttle's end (∞: no throttle). */
  worstWrongMs: number;
  /** Cooldown answers whose throttle's record was lost with a killed replica: not judged. */
  unjudged: number;
  /** Cooldown answers more than 250 ms after the penalty ended (timing), and the worst. */
  late: number;
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

/** The throttles the replicas reported, by partition. */
function throttleRecords(): Map<number, Answer[]> {
  const byPartition = new Map<number, Answer[]>();
  for (const record of records) {
    if (record[0] !== 1) continue;
    const list = byPartition.get(record[1]) ?? [];
    list.push(record);
    byPartition.set(record[1], list);
  }
  return byPartition;
}

/** How a cooldown answer stands: accounted for by a throttle, wrong, or not judged. */
function judge(
  answer: Answer,
  received: Map<number, Answer[]>,
): { verdict: "accounted" | "wrong" | "unjudged"; pastMs: number } {
  const [, partition, when, ms, left] = answer;
  const sends = (throttled.get(partition) ?? []).filter((sent) => sent <= when);
  if (sends.length === 0) return { verdict: "wrong", pastMs: Number.POSITIVE_INFINITY };
  const earliestEnd = when - ms + left;
  // Throttles whose call began before this answer was given: any may have led to it.
  const before = (received.get(partition) ?? []).filter(([, , at, took]) => at - took <= when);
  const allowed = Math.max(...before.map(([, , at, , delay]) => at + delay));
  const pastMs = earliestEnd - allowed;
  if (pastMs <= SLACK_MS) return { verdict: "accounted", pastMs };
  // A 429 of the last few seconds that no replica reported (its replica was killed first) may
  // have led to it.
  const unreported = sends.some(
    (sent) =>
      sent > when - RECENT_MS && !before.some(([, , at, took]) => at - took <= sent && sent <= at),
  );
  return { verdict: unreported ? "unjudged" : "wrong", pastMs };
}

export function measure(from: number, to: number): Measured {
  const inWindow = records.filter((record) => record[2] >= from && record[2] < to);
  const successes = inWindow
    .filter((record) => record[0] === 0)
    .map((record) => record[3])
    .sort((a, b) => a - b);
  const received = throttleRecords();
  let wrong = 0;
  let worstWrongMs = 0;
  let unjudged = 0;
  let late = 0;
  let worstLateMs = 0;
  for (const answer of inWindow) {
    const [outcome, partition, when] = answer;
    if (outcome !== 2) continue;
    const { verdict, pastMs } = judge(answer, received);
    if (verdict === "wrong") {
      wrong += 1;
      worstWrongMs = Math.max(worstWrongMs, pastMs);
    }
    if (verdict === "unjudged") unjudged += 1;
    const list = intervals.get(partition) ?? [];
    if (list.some(([start, end]) => when >= start && when <= end + LATE_MS)) continue;
    late += 1;
    const lastEnd = Math.max(...list.filter(([start]) => start <= when).map(([, end]) => end));
    worstLateMs = Math.max(worstLateMs, when - lastEnd);
  }
  return {
    calls: inWindow.length,
    wrong,
    worstWrongMs,
    unjudged,
    late,
    worstLateMs,
    intoPenalty: penaltiesBetween(from, to),
    p50: percentile(successes, 50),
    p99: percentile(successes, 99),
    errors: inWindow.filter((record) => record[0] === 3).length,
  };
}
