// Bounded retry in place: a short wait (a second or two) is better spent here than handed to
// the model; a long one is returned at once. Off by default.

import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { MAX_TIMER_MS, stringList, timerMs } from "../internal/options.js";
import type { EventSource, RetryEvent } from "../observability/events.js";

/** The bounds of `retry`: how long a wait, how many retries, which methods. */
export interface RetryOptions {
  /** Longest upstream delay that is waited out here, in milliseconds. @default 2000 */
  maxWaitMs?: number | undefined;
  /** Most retries of one call. @default 1 */
  maxAttempts?: number | undefined;
  /**
   * Methods that may be retried.
   * @default ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"] (the idempotent ones)
   */
  methods?: readonly string[] | undefined;
}

/** `retry: true` for the defaults, or the options. */
export type RetryOption = boolean | RetryOptions;

const IDEMPOTENT = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];

export class RetryPolicy {
  readonly #maxWaitMs: number;
  readonly #maxAttempts: number;
  readonly #methods: ReadonlySet<string>;

  constructor(options: RetryOptions) {
    this.#maxWaitMs = timerMs("retry.maxWaitMs", options.maxWaitMs, 2000);
    const attempts = options.maxAttempts ?? 1;
    if (!Number.isInteger(attempts) || attempts < 0) {
      throw new RangeError(
        `\`retry.maxAttempts\` must be a whole number >= 0, got ${String(attempts)}`,
      );
    }
    this.#maxAttempts = attempts;
    const methods =
      options.methods === undefined ? IDEMPOTENT : stringList("retry.methods", options.methods);
    this.#methods = new Set(methods.map((method) => method.toUpperCase()));
  }

  /**
   * How long to wait before retry number `attempt + 1`, or `undefined` to give the throttle
   * back now: too many retries, a method not allowed, a body that cannot be sent twice, or a
   * delay that is unknown (a configured default is a guess, not the upstream's word) or too long.
   */
  waitFor(
    error: UpstreamRateLimitedError,
    attempt: number,
    method: string,
    replayable: boolean,
  ): number | undefined {
    if (attempt >= this.#maxAttempts || !replayable || !this.#methods.has(method.toUpperCase()))
      return undefined;
    const delay = error.retryAfterMs;
    if (delay === undefined || error.delaySource === "default" || delay > this.#maxWaitMs)
      return undefined;
    // SEP-3304 RL-7: jitter, so callers throttled together do not return together; only ever
    // later than the upstream asked, never earlier.
    // A timer longer than 2^31-1 ms fires at once: the jitter never pushes it over (the delay
    // itself is at most `maxWaitMs`, itself a timer's length).
    return Math.min(delay + Math.random() * Math.max(delay * 0.1, 50), MAX_TIMER_MS);
  }
}

export function retryFrom(option: RetryOption | undefined): RetryPolicy | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return new RetryPolicy({});
  if (typeof option !== "object" || option === null) {
    throw new TypeError("`retry` must be `true`, `false` or an options object");
  }
  return new RetryPolicy(option);
}

/** The `retry` event of a retry about to be sent, after a wait of `waitMs`. */
export function retryEvent(
  throttle: UpstreamRateLimitedError,
  source: EventSource,
  attempt: number,
  waitMs: number,
): RetryEvent {
  return {
    type: "retry",
    source,
    limit: throttle.limit,
    attempt,
    waitMs: Math.ceil(waitMs),
    status: throttle.status,
    ...(throttle.host === undefined ? {} : { host: throttle.host }),
  };
}
