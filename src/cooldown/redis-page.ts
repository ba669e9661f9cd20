// Reading every key of a prefix with its value, a page at a time, for loading a view: SCAN and
// then GET each key is two round trips a page and sends every key back to Redis (most of a
// load's CPU went into writing the MGET). One Lua script does both inside Redis: one round trip,
// keys, values and TTLs in the reply. A Redis that refuses scripts (an ACL without EVAL, a managed
// service that disables them) is read with SCAN + MGET instead, from then on.

import type { RedisCommands } from "./redis-client.js";

export interface Page {
  /** The cursor of the next page; "0" when this was the last. */
  cursor: string;
  keys: string[];
  /** The value of each key, in order; `null` where it expired meanwhile (or is no string). */
  values: (string | null)[];
  /** The TTL of each key in milliseconds (Redis' `PTTL`: -2 gone, -1 none). */
  ttls: number[];
}

/** Keys read per MGET, inside the script and without it (each reply well under 1 MB). */
const MGET_CHUNK = 1000;

// ARGV: cursor, pattern, count. A key that is no string (a list someone put there) reads nil.
const SCRIPT = `
local page = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
local keys, values, ttls = page[2], {}, {}
for i = 1, #keys, ${MGET_CHUNK} do
  local last = math.min(i + ${MGET_CHUNK - 1}, #keys)
  local chunk = redis.call('MGET', unpack(keys, i, last))
  for j = 1, last - i + 1 do values[i + j - 1] = chunk[j] end
end
for i = 1, #keys do ttls[i] = redis.call('PTTL', keys[i]) end
return {page[1], keys, values, ttls}`;

/** Reads pages of `pattern`: by script while Redis runs it, else by SCAN + MGET. */
export function pageReader(
  commands: RedisCommands,
  timed: <T>(pending: Promise<T>) => Promise<T>,
): (cursor: string, pattern: string, count: number) => Promise<Page> {
  let scripts = true;
  // Each command with its own timeout: a page of three round trips is not one answer late.
  const twoTrips = async (cursor: string, pattern: string, count: number): Promise<Page> => {
    const page = await timed(commands.scan(cursor, pattern, count));
    const values: (string | null)[] = [];
    const ttls: number[] = [];
    for (let start = 0; start < page.keys.length; start += MGET_CHUNK) {
      const some = page.keys.slice(start, start + MGET_CHUNK);
      const chunk = await timed(commands.mget(some));
      for (const value of chunk) values.push(typeof value === "string" ? value : null);
      const left = await timed(commands.multi(some.map((key) => ["PTTL", key])));
      for (const ttl of left) ttls.push(Number(ttl));
    }
    return { cursor: page.cursor, keys: page.keys, values, ttls };
  };
  return async (cursor, pattern, count) => {
    if (!scripts) return twoTrips(cursor, pattern, count);
    let reply: unknown;
    try {
      reply = await timed(commands.eval(SCRIPT, [cursor, pattern, String(count)]));
    } catch (error) {
      // Refused, or Redis is gone: the two-trip read tells which (it fails too when Redis is gone).
      const page = await twoTrips(cursor, pattern, count).catch(() => {
        throw error;
      });
      scripts = false;
      return page;
    }
    return pageOf(reply);
  };
}

/** The script's reply, checked: `[cursor, keys, values]`, as long as each other. */
function pageOf(reply: unknown): Page {
  if (!Array.isArray(reply) || reply.length !== 4)
    throw new Error("unexpected reply to the load script");
  const [cursor, keys, values, ttls] = reply as unknown[];
  const sameLength = (list: unknown): list is unknown[] =>
    Array.isArray(list) && Array.isArray(keys) && list.length === keys.length;
  if (!sameLength(keys) || !sameLength(values) || !sameLength(ttls)) {
    throw new Error("unexpected reply to the load script");
  }
  return {
    cursor: String(cursor),
    keys: keys.map(String),
    values: values.map((value) => (typeof value === "string" ? value : null)),
    ttls: ttls.map(Number),
  };
}
