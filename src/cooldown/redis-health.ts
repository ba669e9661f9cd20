// Whether Redis answers, as a RedisCooldownStore sees it: a command unanswered within 200 ms, or
// one that failed without an answer (a lost connection), marks Redis down until a heartbeat gets
// an answer again; throttles seen meanwhile are held, and written once it answers. An error *answer* (OOM under `maxmemory`, WRONGTYPE, READONLY, NOPERM…) is
// Redis answering: it is not an outage, and other commands (PUBLISH among them) still go through.
// Failures are reported once per outage; an outage is over once the store was healthy at every
// heartbeat for 2 s.

import { emitEvent, storeErrorEvent, type ThrottleEventHook } from "../observability/events.js";
import { monotonicNow } from "./clock.js";
import type { CooldownEntry } from "./store.js";

/** A command unanswered this long marks Redis down. Below the guard's default `storeTimeoutMs`. */
export const COMMAND_TIMEOUT_MS = 200;
/**
 * Healthy this long (at every beat), an outage is over: the next failure is reported again. A
 * flood that makes the subscription fall behind, then fills the view, is one outage, not three.
 */
const SETTLED_MS = 2000;
/** Throttles seen while Redis was down, written once it answers again (the latest few only). */
const MAX_HELD = 10_000;

/** Redis' error replies begin with an upper-case code: `OOM command not allowed…`, `WRONGTYPE…`. */
const ERROR_CODE = /^[A-Z][A-Z_]+(?: |$)/;

export class RedisHealth {
  /** Redis answers (no command timed out, or failed unanswered, since the last beat came back). */
  up = true;
  closed = false;
  #failing = false;
  #healthySince = Number.POSITIVE_INFINITY;
  #refused = false;
  readonly #held = new Map<string, { entry: CooldownEntry; until: number }>();
  readonly #onEvent: ThrottleEventHook;

  constructor(onEvent: ThrottleEventHook) {
    this.#onEvent = onEvent;
  }

  /** A command with the store's own timeout: one that times out or fails unanswered marks Redis down. */
  async timed<T>(pending: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          // Rejected after the next poll for I/O: when the event loop itself was stalled, an
          // answer that arrived meanwhile is read first, and Redis is not taken for down.
          const late = () =>
            reject(new Error(`Redis gave no answer within ${COMMAND_TIMEOUT_MS} ms`));
          timer = setTimeout(() => afterIo(late), COMMAND_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      pending.catch(() => {});
      if (!isErrorAnswer(error)) this.down(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A throttle (its end on the monotonic clock) not written while Redis is down: kept for later. */
  hold(key: string, entry: CooldownEntry, until: number): void {
    const known = this.#held.get(key);
    if (known !== undefined && known.until >= until) return;
    if (known === undefined && this.#held.size >= MAX_HELD) return;
    this.#held.set(key, { entry, until });
  }

  /** Redis answers again: the throttles held meanwhile that are still live, to write now. */
  release(): [string, { entry: CooldownEntry; until: number }][] {
    const now = monotonicNow();
    const live = [...this.#held].filter(([, held]) => held.until > now);
    this.#held.clear();
    return live;
  }

  /** A write Redis refused (OOM…) but announced: reported once, until a write goes through. */
  refused(error: unknown): void {
    if (this.#refused) return;
    this.#refused = true;
    this.report(error);
  }

  wrote(): void {
    this.#refused = false;
  }

  down(error: unknown): void {
    if (this.closed) return;
    this.up = false;
    this.report(error);
  }

  /** Once per outage, as a `store-error` event. */
  report(error: unknown): void {
    this.#healthySince = Number.POSITIVE_INFINITY;
    if (this.#failing) return;
    this.#failing = true;
    emitEvent(this.#onEvent, storeErrorEvent(error, "RedisCooldownStore", "sync"));
  }

  /** At every beat: ends the outage being reported once the store was healthy for SETTLED_MS. */
  settle(healthy: boolean): void {
    if (!healthy) {
      this.#healthySince = Number.POSITIVE_INFINITY;
      return;
    }
    const now = monotonicNow();
    if (this.#healthySince === Number.POSITIVE_INFINITY) this.#healthySince = now;
    else if (now - this.#healthySince >= SETTLED_MS) this.#failing = false;
  }
}

/** An error Redis answered with (ioredis' ReplyError, node-redis' ErrorReply): Redis is up. */
export function isErrorAnswer(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === "ReplyError" || ERROR_CODE.test(error.message);
}

export function isWrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("WRONGTYPE");
}

function afterIo(run: () => void): void {
  if (typeof setImmediate === "function") setImmediate(run);
  else setTimeout(run, 0);
}
