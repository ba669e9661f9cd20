// What a store a network away (HTTP Redis, a Durable Object) has already told this isolate: the
// cooldowns it read or wrote, kept until they end. A cooldown is never ended early by anyone (a
// later throttle only replaces it), so a call into a penalty this isolate knows of is answered
// with no round trip; only calls with nothing known pay one. A "nothing here" answer is never
// kept: another isolate may see a throttle the next moment, and only the store would know. The
// guard keeps one too, in front of any store but the in-process one, for the throttles it wrote:
// a write that timed out, or that the breaker skipped, is still known here.

import { entryShape } from "../untrusted/store-entry.js";
import { MemoryCooldownStore } from "./memory.js";
import type { CooldownEntry } from "./store.js";

/** Kept at most this long, whatever an entry claims: the guard's own clamp is a day. */
const MAX_KEEP_MS = 86_400_000;

export class KnownHits {
  readonly #memory: MemoryCooldownStore;
  readonly #now: () => number;

  constructor(maxEntries: number, now: () => number) {
    this.#memory = new MemoryCooldownStore({ maxEntries, now });
    this.#now = now;
  }

  /** A cooldown this isolate knows is still on, or `undefined`. */
  get(key: string): CooldownEntry | undefined {
    return this.#memory.get(key);
  }

  /** Whether any key of `scope` (without one: any key) may be known to be cooling down. */
  mayHave(scope?: string): boolean {
    return this.#memory.mayHave(scope);
  }

  /**
   * Keeps what the store answered when it is shaped like an entry and not over; anything else is
   * left for the guard to judge (and report) as it came.
   */
  note(key: string, raw: unknown, notAfter = Number.POSITIVE_INFINITY): void {
    const shape = entryShape(raw);
    if (shape === undefined) return;
    const left = Math.min(shape.until, notAfter) - this.#now();
    if (!(left > 0)) return;
    this.#memory.set(key, raw as CooldownEntry, Math.min(left, MAX_KEEP_MS));
  }
}
