/** What a cooldown remembers of a throttle: enough to answer the next call without the upstream. */
export interface CooldownEntry {
  /** Epoch milliseconds until which calls short-circuit. */
  until: number;
  /** The name the throttle reported, and where it came from. */
  limit: string;
  limitSource: "option" | "upstream" | "host";
  /** The upstream's HTTP status. */
  status: number;
  /** The upstream's absolute reset time, epoch milliseconds, when it sent one. */
  resetsAt?: number;
  /** The upstream's message, already cleaned. */
  message?: string;
}

/**
 * Where cooldowns live: in memory for one process, in Redis for several replicas. Methods may
 * return a value or a promise; a store that throws or rejects never fails a call (fail open).
 */
export interface CooldownStore {
  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined>;
  /** Remembers `entry` under `key` for `ttlMs` milliseconds. */
  set(key: string, entry: CooldownEntry, ttlMs: number): void | Promise<void>;
}
