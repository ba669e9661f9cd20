// Asking a store that may be down, slow or hostile: an answer given at once is used at once, an
// asynchronous one is waited for within the store's timeout, and a failure opens the breaker, so
// a store known to be down is skipped at once until a probe finds it back. The outage is told once.

import { MAX_TIMER_MS } from "../internal/options.js";
import { Breaker, LOCAL_ANSWER, type LocalAnswer } from "./breaker.js";
import { isThenable } from "./hooks.js";
import type { CooldownEntry, CooldownStore } from "./store.js";

/** What a store operation was, for the report of its failure. */
export type StoreOperation = "get" | "set";

export class StoreGuard {
  readonly #timeoutMs: number;
  readonly #report: (error: unknown, operation: StoreOperation) => void;
  readonly #breaker = new Breaker();
  #failing = false;

  /** `report` hears of each outage once: its first failure, until an answer comes back. */
  constructor(timeoutMs: number, report: (error: unknown, operation: StoreOperation) => void) {
    this.#timeoutMs = timeoutMs;
    this.#report = report;
  }

  /**
   * Runs a store operation: an answer (at once when the store gave one at once), or `undefined`
   * after reporting why there is none. While the breaker is open the store is not asked at all,
   * but for one probe per backoff.
   */
  attempt<T>(
    operation: StoreOperation,
    run: () => T | Promise<T>,
    local?: () => T | undefined,
  ): T | undefined | Promise<T | undefined> {
    if (!this.#breaker.admit()) return local?.();
    let pending: T | Promise<T>;
    try {
      pending = run();
    } catch (error) {
      this.#failed(error, operation);
      return undefined;
    }
    // A store that answers at once (the memory store, a Redis view) needs no timer and makes
    // no one wait: the breaker closes. Whether its backend is back is another matter: the
    // outage is over (and may be reported again) only once an answer came asynchronously.
    if (!isThenable(pending)) {
      this.#breaker.succeeded();
      return pending;
    }
    return this.#settle(operation, pending);
  }

  /** An asynchronous answer, within the store's timeout. */
  async #settle<T>(operation: StoreOperation, pending: Promise<T>): Promise<T | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`cooldown store gave no answer within ${this.#timeoutMs} ms`)),
          this.#timeoutMs,
        );
      });
      const value = await Promise.race([pending, timeout]);
      this.#breaker.succeeded();
      this.#failing = false;
      return value;
    } catch (error) {
      this.#failed(error, operation);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The store failed or was too slow: the breaker opens, and the outage is told once. */
  #failed(error: unknown, operation: StoreOperation): void {
    this.#breaker.failed();
    if (!this.#failing) {
      this.#failing = true;
      this.#report(error, operation);
    }
  }
}

/** The wait a store declares for itself (`timeoutMs`), when it is a usable timer; else 250 ms. */
export function storeTimeout(store: CooldownStore | undefined): number {
  let declared: unknown;
  try {
    declared = store?.timeoutMs;
  } catch {
    // A getter that throws declares nothing.
  }
  return typeof declared === "number" && declared >= 0 && declared <= MAX_TIMER_MS ? declared : 250;
}

/** While the breaker is open: what the store knows from memory alone, if it can tell (no I/O). */
export function localAnswer(store: CooldownStore, key: () => string): CooldownEntry | undefined {
  try {
    return (store as LocalAnswer)[LOCAL_ANSWER]?.(key());
  } catch {
    return undefined;
  }
}
