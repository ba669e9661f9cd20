// One call's waits: how many retries, and how long in all, against `maxAttempts` and
// `maxWaitMs`.

import type { HonorSettings } from "./options.js";

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
    if (this.retries >= this.#maxAttempts || delayMs > left) return undefined;
    // SEP-3304 RL-7: jitter, only ever later than asked (as the core's retry), so callers
    // throttled together do not come back together; cut to the budget, never below the delay.
    const wait = Math.min(delayMs + Math.random() * Math.max(delayMs * 0.1, 50), left);
    this.retries += 1;
    this.#waited += wait;
    return wait;
  }
}
