// The index of a RedisCooldownStore: what a view is loaded from, without walking the keyspace.
// Every write adds a record (`<key>\n<entry JSON>`) to a list per time bucket of the entry's end
// (`<prefix>log:<n>`, n = floor(until / 5 s)), in the same MULTI as the entry's own key (which
// stays, for point lookups). Redis itself prunes it: a bucket's list expires when its last
// possible entry is over (its end is fixed, so every write sets the same PEXPIRE: no GT, no
// HEXPIRE, any Redis), and a sorted set of the buckets (`<prefix>log`, scored by their end) is
// trimmed of ended buckets by every write. So the index holds at most the records whose end is
// less than one bucket ago, whatever the rate of throttles; no script is needed to write it. A
// load reads the live buckets a page of records at a time (one string per entry, no keyspace
// MATCH), each with its key's TTL (redis-records.ts: a script, or without one LRANGE and PTTLs).
//
// Older writers (0.2.0) fill no index. `<prefix>layout` (a hash, so that their SCAN + MGET reads
// nothing there) says `index = 1` once a replica copied every entry into the index and heard no
// older replica for a while; without it a view is loaded by SCAN as before (redis.ts).

import type { RedisCommands } from "./redis-client.js";

/** Width of a bucket: a record outlives its entry by at most this. */
export const BUCKET_MS = 5000;
/** Buckets read at most by a load; more (ends over 27 days apart) and the index is not used. */
export const MAX_BUCKETS = 20_000;
/**
 * Records asked for a page (a reply of ~75 KB): the client decodes a page in one turn of the
 * event loop and the view takes it in in the next, so the page bounds the longest stall.
 */
const PAGE = 500;
/** Requests in flight while loading: Redis reads the next page while this process takes one in. */
const DEPTH = 2;
/** Buckets whose length is asked for in one transaction. */
const LENGTHS_AT_ONCE = 1000;
/** The value of the marker's field `index` that says the index holds every entry. */
export const INDEX_VERSION = "1";
const BUCKET_ID = /^\d{1,15}$/;

/** The keys of the index of `prefix`. */
export interface IndexKeys {
  /** Sorted set of bucket numbers, each scored by its bucket's end. */
  buckets: string;
  /** Hash: `index` = INDEX_VERSION once the index holds every entry. */
  layout: string;
  bucket(id: number | string): string;
}

export function indexKeys(prefix: string): IndexKeys {
  return {
    buckets: `${prefix}log`,
    layout: `${prefix}layout`,
    bucket: (id) => `${prefix}log:${id}`,
  };
}

/** The record of an entry in the index. */
export function record(key: string, text: string): string {
  return `${key}\n${text}`;
}

/**
 * The commands that put `records` (key and entry text, each with its end `until`) into the
 * index, for a MULTI: one RPUSH per bucket, its expiry, and the trimmed list of buckets.
 */
export function indexCommands(
  keys: IndexKeys,
  records: { key: string; text: string; until: number }[],
  now: number,
): string[][] {
  const byBucket = new Map<number, string[]>();
  for (const { key, text, until } of records) {
    const id = Math.floor(until / BUCKET_MS);
    const list = byBucket.get(id);
    if (list === undefined) byBucket.set(id, [record(key, text)]);
    else list.push(record(key, text));
  }
  const commands: string[][] = [];
  for (const [id, list] of byBucket) {
    const end = (id + 1) * BUCKET_MS;
    const bucket = keys.bucket(id);
    commands.push(
      ["RPUSH", bucket, ...list],
      // The end of the bucket, whoever writes: the list goes when its last entry is over.
      ["PEXPIRE", bucket, String(Math.max(1, Math.ceil(end - now)))],
      ["ZADD", keys.buckets, String(end), String(id)],
    );
  }
  // The set of buckets has no TTL (a write for an earlier bucket must not shorten it): it is
  // trimmed instead, and holds at most the buckets still live at the last write.
  if (commands.length > 0) {
    commands.push(["ZREMRANGEBYSCORE", keys.buckets, "-inf", `(${Math.floor(now)}`]);
  }
  return commands;
}

/**
 * Every live bucket, a page at a time, each page read by `read` (its first and last index) and
 * `onPage` called with it (awaited: it may yield); the next pages are already asked for
 * meanwhile. Returns false when the index cannot be used (too many buckets): the caller loads
 * another way. A key of the wrong type where a bucket should be rejects, like any failed command.
 */
export async function readIndex<Page>(
  commands: RedisCommands,
  keys: IndexKeys,
  now: number,
  timed: <T>(pending: Promise<T>) => Promise<T>,
  read: (bucket: string, start: number, stop: number) => Promise<Page>,
  onPage: (page: Page) => Promise<boolean>,
): Promise<boolean> {
  const ids = await timed(
    commands.command([
      "ZRANGEBYSCORE",
      keys.buckets,
      `(${Math.floor(now)}`,
      "+inf",
      "LIMIT",
      "0",
      String(MAX_BUCKETS + 1),
    ]),
  );
  if (!Array.isArray(ids))
    throw new Error("unexpected reply to ZRANGEBYSCORE of the cooldown index");
  if (ids.length > MAX_BUCKETS) return false;
  const buckets = ids.map(String).filter((id) => BUCKET_ID.test(id));
  // The lengths now (what is pushed later is announced: the subscription is made first), in
  // transactions of LENGTHS_AT_ONCE: one round trip each, however many buckets there are.
  const lengths: unknown[] = [];
  for (let start = 0; start < buckets.length; start += LENGTHS_AT_ONCE) {
    const some = buckets.slice(start, start + LENGTHS_AT_ONCE);
    const replies = await timed(commands.multi(some.map((id) => ["LLEN", keys.bucket(id)])));
    for (const reply of replies) {
      // A key of the wrong type where a bucket should be: the caller loads another way.
      if (reply instanceof Error) throw reply;
      lengths.push(reply);
    }
  }
  const pages: [string, number][] = [];
  buckets.forEach((id, i) => {
    const length = Number(lengths[i]);
    for (let start = 0; start < length; start += PAGE) pages.push([keys.bucket(id), start]);
  });
  const ask = ([bucket, start]: [string, number]) => quiet(read(bucket, start, start + PAGE - 1));
  const inFlight = pages.slice(0, DEPTH).map(ask);
  let next = inFlight.length;
  for (let i = 0; i < pages.length; i += 1) {
    const reply = await inFlight.shift();
    const page = pages[next];
    next += 1;
    if (page !== undefined) inFlight.push(ask(page));
    if (!(await onPage(reply as Page))) return true;
  }
  return true;
}

/** Reads a page of records as they are (LRANGE): strings, unless someone wrote otherwise. */
export function recordsAsTheyAre(
  commands: RedisCommands,
  timed: <T>(pending: Promise<T>) => Promise<T>,
): (bucket: string, start: number, stop: number) => Promise<unknown[]> {
  return async (bucket, start, stop) => {
    const reply = await timed(commands.command(["LRANGE", bucket, String(start), String(stop)]));
    if (!Array.isArray(reply)) throw new Error("unexpected reply to LRANGE of the cooldown index");
    return reply;
  };
}

/** `pending`, with its rejection handled even when no one awaits it (a load that stopped early). */
function quiet<T>(pending: Promise<T>): Promise<T> {
  pending.catch(() => {});
  return pending;
}
