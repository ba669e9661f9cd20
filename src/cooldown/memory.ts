import type { CooldownEntry, CooldownStore } from "./store.js";

export interface MemoryCooldownStoreOptions {
  /** Most keys kept; the least recently used goes first. @default 10000 */
  maxEntries?: number;
  /** The clock. @default Date.now */
  now?: () => number;
}

/** The default store: bounded, least-recently-used eviction, entries expire on their own. */
export class MemoryCooldownStore implements CooldownStore {
  readonly #entries = new Map<string, { entry: CooldownEntry; expires: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryCooldownStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`\`maxEntries\` must be a positive integer, got ${String(maxEntries)}`);
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  get(key: string): CooldownEntry | undefined {
    const stored = this.#entries.get(key);
    if (stored === undefined) return undefined;
    this.#entries.delete(key);
    if (stored.expires <= this.#now()) return undefined;
    this.#entries.set(key, stored); // most recently used now
    return stored.entry;
  }

  set(key: string, entry: CooldownEntry, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { entry, expires: this.#now() + ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Keys held now, expired ones included until they are next read. */
  get size(): number {
    return this.#entries.size;
  }
}
