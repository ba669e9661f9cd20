// A store known to be down is skipped at once: after a failure or a slow answer,
// guarded calls stop waiting on the store; one call at a time probes it again after a backoff
// (0.5 s doubling to 5 s), and the first answer closes the breaker. The outage is reported once.

import { monotonicNow } from "./clock.js";
import type { CooldownEntry } from "./store.js";

/**
 * What a store may answer from memory alone (no I/O, never waited for): asked while the breaker
 * is open, so that a failed or slow write does not hide what the process itself knows (a Redis
 * view keeps answering for the throttle its replica recorded).
 */
export const LOCAL_ANSWER: unique symbol = Symbol.for("mcp-upstream-throttle.localAnswer");

/** A store that answers from memory while the breaker is open. */
export interface LocalAnswer {
  [LOCAL_ANSWER]?(key: string): CooldownEntry | undefined;
}

const FIRST_BACKOFF_MS = 500;
const LAST_BACKOFF_MS = 5000;

export class Breaker {
  #openUntil = 0;
  #backoffMs = 0;
  #probing = false;

  /** Whether the store is believed up. */
  get closed(): boolean {
    return this.#backoffMs === 0;
  }

  /** Whether a call may ask the store now: always while closed, else one probe per backoff. */
  admit(): boolean {
    if (this.#backoffMs === 0) return true;
    if (this.#probing || monotonicNow() < this.#openUntil) return false;
    this.#probing = true;
    return true;
  }

  /** The store answered: closed again. */
  succeeded(): void {
    this.#backoffMs = 0;
    this.#probing = false;
  }

  /** The store failed or was too slow: open (longer each time a probe fails). */
  failed(): void {
    const wasClosed = this.#backoffMs === 0;
    this.#backoffMs = wasClosed
      ? FIRST_BACKOFF_MS
      : this.#probing
        ? Math.min(this.#backoffMs * 2, LAST_BACKOFF_MS)
        : this.#backoffMs;
    this.#openUntil = monotonicNow() + this.#backoffMs;
    this.#probing = false;
  }
}
