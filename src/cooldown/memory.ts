import { isObject } from "../internal/is-object.js";
import { optionalFunction } from "../internal/options.js";
import { monotonicNow } from "./clock.js";
import { type CooldownEntry, type CooldownStore, ScopeIndex, scopeOfKey } from "./store.js";

/** Options of `MemoryCooldownStore`. */
export interface MemoryCooldownStoreOptions {
  /**
   * Most keys kept; past it, the least recently used go first. One key (a limit and a 64-hex
   * partition) costs about 260 bytes of heap (measured), so the default holds the cooldowns of
   * 100,000 callers in about 26 MB. @default 100000
   */
  maxEntries?: number | undefined;
  /** The clock, epoch milliseconds. @default a monotonic clock (never stepped by NTP) */
  now?: (() => number) | undefined;
}

interface Stored {
  entry: CooldownEntry;
  expires: number;
}

/**
 * The default store: one process, bounded, entries expire on their own. Eviction is O(1):
 * keys live in two generations of at most `maxEntries / 2`; when the newer one is full it
 * becomes the older and the older is dropped whole, and a key read from the older moves up.
 * (Deleting the oldest key of one big `Map` one at a time gets slower as the map fills.)
 *
 * @example
 * ```ts
 * import { MemoryCooldownStore, throttledFetch } from "mcp-upstream-throttle";
 *
 * // One store for several wrappers of this process (`cooldown: true` gives each its own).
 * const store = new MemoryCooldownStore({ maxEntries: 1000 });
 * const github = throttledFetch({ limit: "github", cooldown: { store } });
 * const slack = throttledFetch({ limit: "slack", cooldown: { store } });
 * ```
 */
export class MemoryCooldownStore implements CooldownStore {
  /** Always `false`: this store lives in one process. */
  readonly shared = false;
  #young = new Map<string, Stored>();
  #old = new Map<string, Stored>();
  readonly #generation: number;
  readonly #now: () => number;
  readonly #scopes: ScopeIndex;

  /** Makes an empty store; a `maxEntries` below 2 throws a `RangeError`. */
  constructor(options: MemoryCooldownStoreOptions = {}) {
    if (!isObject(options)) {
      throw new TypeError(
        `\`options\` of MemoryCooldownStore must be an object ({ maxEntries, now }), got ${typeof options}`,
      );
    }
    const maxEntries = options.maxEntries ?? 100_000;
    if (typeof maxEntries !== "number") {
      throw new TypeError(`\`maxEntries\` must be an integer >= 2, got ${typeof maxEntries}`);
    }
    if (!Number.isInteger(maxEntries) || maxEntries < 2) {
      throw new RangeError(`\`maxEntries\` must be an integer >= 2, got ${String(maxEntries)}`);
    }
    this.#generation = Math.floor(maxEntries / 2);
    this.#now = optionalFunction<() => number>("now", options.now) ?? monotonicNow;
    // As many scopes as keys: a long cooldown on one host outlives any number of other hosts.
    this.#scopes = new ScopeIndex(maxEntries);
  }

  get(key: string): CooldownEntry | undefined {
    let stored = this.#young.get(key);
    if (stored === undefined) {
      stored = this.#old.get(key);
      if (stored === undefined) return undefined;
      this.#old.delete(key);
      if (stored.expires > this.#now()) this.#insert(key, stored);
    }
    if (stored.expires > this.#now()) return stored.entry;
    this.#young.delete(key);
    return undefined;
  }

  set(key: string, entry: CooldownEntry, ttlMs: number): void {
    const expires = this.#now() + ttlMs;
    this.#old.delete(key);
    this.#young.delete(key);
    this.#insert(key, { entry, expires });
    this.#scopes.note(scopeOfKey(key), expires);
  }

  mayHave(scope?: string): boolean {
    return this.#scopes.mayHave(scope, this.#now());
  }

  /** Keys held now, expired ones included until they are next read or evicted. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  #insert(key: string, stored: Stored): void {
    if (this.#young.size >= this.#generation) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, stored);
  }
}
