// One call's waits: how many retries, and how long in all, against `maxAttempts` and
// `maxWaitMs`.

import type { HonorSettings } from "./options.js";

/** The shortest wait before a retry, whatever delay the throttle gave. */
export const MIN_RETRY_MS = 100;

export class Budget {
  readonly #maxWaitMs: number;
  readonly #maxAttempts: number;
  #waited = 0;
  retries = 0;

  constructor(settings: HonorSettings<never>) {
    this.#maxWaitMs = settings.maxWaitMs;
    this.#maxAttempts = settings.maxAttempts;
  }

  /** Milliseconds of waiting left. */
  get left(): number {
    return Math.max(0, this.#maxWaitMs - this.#waited);
  }

  /** Counts time spent waiting on something else (another call's probe). */
  spend(ms: number): void {
    this.#waited += ms;
  }

  /** How long to wait before the next attempt, or `undefined` when `delayMs` does not fit. */
  next(delayMs: number): number | undefined {
    const left = this.left;
    // A server that says "retry now" (0 s) every time gets a retry no sooner than the floor,
    // and none once the budget cannot hold the floor: never a burst of calls.
    const floor = Math.max(delayMs, MIN_RETRY_MS);
    if (this.retries >= this.#maxAttempts || floor > left) return undefined;
    // SEP-3304 RL-7: jitter, only ever later than asked (as the core's retry), so callers
    // throttled together do not come back together; cut to the budget, never below the floor.
    const wait = Math.min(floor + Math.random() * Math.max(floor * 0.1, 50), left);
    this.retries += 1;
    this.#waited += wait;
    return wait;
  }
}
