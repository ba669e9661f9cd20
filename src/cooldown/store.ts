/** What a cooldown remembers of a throttle: enough to answer the next call without the upstream. */
export interface CooldownEntry {
  /**
   * Epoch milliseconds until which calls short-circuit: the absolute end, written by the replica
   * that saw the throttle, so a write that arrives late (a stalled Redis) still ends on time.
   */
  until: number;
  /** The name the throttle reported, and where it came from. */
  limit: string;
  /** Where `limit` came from: the tool author, the upstream's own name, or its host. */
  limitSource: "option" | "upstream" | "host";
  /** The upstream's HTTP status. */
  status: number;
  /** The upstream's absolute reset time, epoch milliseconds, when it sent one. */
  resetsAt?: number;
  /**
   * Never written: a cooldown is shared by a partition (often every caller of one upstream key),
   * so it answers with the limit and the time left, never one caller's upstream message. Read
   * only to tell an invalid entry apart.
   */
  message?: string;
}

/**
 * Where cooldowns live: in memory for one process, in Redis for several replicas, or any
 * object with these methods. Methods may return a value or a promise. Whatever `get` returns
 * is checked before use (an invalid entry is ignored and reported); a store that throws or
 * rejects never fails a call (fail open).
 *
 * Keys are `<scope>|<partition>`: the scope is the limit's name (or the upstream's host), the
 * partition the caller's keyed hash, with `|` and `%` percent-encoded.
 */
export interface CooldownStore {
  /** The entry remembered under `key`, or `undefined` when there is none (or it has expired). */
  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined>;
  /** Remembers `entry` under `key` for `ttlMs` milliseconds. */
  set(key: string, entry: CooldownEntry, ttlMs: number): void | Promise<void>;
  /**
   * Whether other processes read and write this store too. A shared store needs
   * `cooldown.partitionSecret` (or a `cooldown.partition` of your own). @default true
   */
  readonly shared?: boolean;
  /**
   * Answers at once, without I/O, whether any key of `scope` may be cooling down (with no
   * `scope`: whether any key at all may be). `false` lets a guarded call skip its partition hash
   * and its lookup: the success path costs nothing. A store without it is asked on every
   * guarded call.
   */
  mayHave?(scope?: string): boolean;
  /**
   * How long a guarded call waits for this store when `cooldown.storeTimeoutMs` is not given, in
   * milliseconds: a store a network away sets it above its round trip, so that a slow answer is
   * waited for instead of being waited for and then dropped. @default 250
   */
  readonly timeoutMs?: number;
}

/** The store key of a (scope, partition) pair. */
export function cooldownKey(scope: string, partition: string): string {
  // A hash (hex) has neither: the replace runs only for a custom partition that has one.
  if (!partition.includes("|") && !partition.includes("%")) return `${scope}|${partition}`;
  return `${scope}|${partition.replace(/[%|]/g, (char) => (char === "%" ? "%25" : "%7C"))}`;
}

/** The scope of a key made by `cooldownKey`. */
export function scopeOfKey(key: string): string {
  const bar = key.lastIndexOf("|");
  return bar === -1 ? key : key.slice(0, bar);
}

/**
 * The latest end of any cooldown per scope, so a store can answer `mayHave` without looking at
 * a single key. Bounded and O(1) per note: expired scopes are dropped as they are met, and past
 * `maxScopes` the oldest noted goes; while what it dropped may still be cooling down, every
 * scope may be (a lookup that finds nothing, never a cooldown missed).
 */
export class ScopeIndex {
  readonly #until = new Map<string, number>();
  /** The scope noted last (the newest in `#until`): noted again, it needs no move. */
  #newest: string | undefined;
  /** The latest end of all: past it, nothing at all is cooling down. */
  #latest = 0;
  /** The latest end of a scope dropped for room: until then, an unknown scope may be cooling. */
  #dropped = 0;
  readonly #maxScopes: number;

  constructor(maxScopes = 10_000) {
    this.#maxScopes = maxScopes;
  }

  note(scope: string, until: number): void {
    if (until > this.#latest) this.#latest = until;
    const known = this.#until.get(scope);
    if (known !== undefined && known >= until) return;
    // A load notes thousands of one scope in a row: the newest stays where it is.
    if (known !== undefined && scope !== this.#newest) this.#until.delete(scope);
    this.#until.set(scope, until);
    this.#newest = scope;
    if (this.#until.size > this.#maxScopes) {
      const [oldest, end] = this.#until.entries().next().value as [string, number];
      this.#until.delete(oldest);
      if (end > this.#dropped) this.#dropped = end;
    }
  }

  /** Whether `scope` (or, without one, any scope) may have a key cooling down at `now`. */
  mayHave(scope: string | undefined, now: number): boolean {
    if (this.#latest <= now) return false;
    if (scope === undefined) return true;
    const until = this.#until.get(scope);
    if (until === undefined) return this.#dropped > now;
    if (until > now) return true;
    this.#until.delete(scope);
    return this.#dropped > now;
  }

  /** Scopes noted and not yet dropped. */
  get size(): number {
    return this.#until.size;
  }

  clear(): void {
    this.#until.clear();
    this.#latest = 0;
    this.#dropped = 0;
  }
}
