// A point lookup in Redis, made by a guarded call while the view of a RedisCooldownStore is not
// live: the key's value (its end on the wall clock) and its TTL, which Redis counts down whatever
// any replica's clock says, so an end written by a replica whose clock is ahead holds no longer.

import { isObject } from "../internal/is-object.js";
import { monotonicNow } from "./clock.js";
import type { RedisCommands } from "./redis-client.js";
import { parse } from "./redis-entry.js";
import type { CooldownEntry } from "./store.js";

export interface Known {
  /** What the view holds for the key once Redis answered (Redis emptied, a restart, leaves it). */
  known(): CooldownEntry | undefined;
  /** Turns a wall-clock end into one on this process's monotonic clock. */
  offset(): number;
}

/** The entry under `key`, its end on this process's clock; the later of it and the view's. */
export async function fetchEntry(
  commands: RedisCommands,
  timed: <T>(pending: Promise<T>) => Promise<T>,
  prefix: string,
  key: string,
  { known, offset }: Known,
): Promise<CooldownEntry | undefined> {
  const name = prefix + key;
  const [raw, ttl] = await timed(Promise.all([commands.get(name), commands.pttl(name)]));
  const held = known();
  if (raw === null || raw === undefined) return held;
  const entry = parse(raw) as CooldownEntry;
  // Not an entry: handed on as it is, for the guard to ignore and report.
  if (!isObject(entry) || typeof entry.until !== "number") return entry;
  let until = entry.until + offset();
  if (ttl > 0) until = Math.min(until, monotonicNow() + ttl);
  if (held !== undefined && !(until > held.until)) return held;
  return { ...entry, until };
}
