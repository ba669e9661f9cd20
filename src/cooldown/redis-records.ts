// Reading a page of the index's records (`<key>\n<entry JSON>`) for loading a view, each with its
// key's TTL, which caps the record's end. One Lua script a page does it all inside Redis: the
// LRANGE, the split of each record and the PTTL of its key, so the keys are neither sent back
// to Redis nor cut out of the records here (most of a load's client CPU went into both), and a
// record whose key is gone never leaves Redis. A Redis that refuses scripts (an ACL without
// EVAL, a managed service that disables them) is read with LRANGE and a transaction of PTTLs
// instead, from then on.

import { monotonicNow } from "./clock.js";
import type { RedisCommands } from "./redis-client.js";
import { isErrorAnswer } from "./redis-health.js";
import { MAX_ENTRY_CHARACTERS } from "./redis-view.js";

/** The records of a page whose key still exists, in order. */
export interface RecordPage {
  keys: string[];
  /** The entry text of each record. */
  texts: string[];
  /** The PTTL of each record's key (-1: it has none). */
  ttls: number[];
  /** When Redis answered, on this process's monotonic clock: what the TTLs count from. */
  at: number;
}

/** Longer than any key and entry the view takes (UTF-16 code units): not looked into. */
const LONGEST_RECORD = 2 * MAX_ENTRY_CHARACTERS + 1;

// ARGV: the prefix, the bucket, the first and last index, the longest record looked into (in
// bytes, which a record of LONGEST_RECORD code units never exceeds). The key is what comes before
// the last newline, as a record is split without the script (found by plain searches: a pattern
// cost Redis a fifth more CPU). The reply: key, text and PTTL of each record whose key exists,
// one after the other.
const SCRIPT = `
local prefix, longest = ARGV[1], tonumber(ARGV[5])
local records = redis.call('LRANGE', ARGV[2], ARGV[3], ARGV[4])
local find, sub, call = string.find, string.sub, redis.call
local found, n = {}, 0
for i = 1, #records do
  local one = records[i]
  local bar = #one <= longest and find(one, '\\n', 1, true)
  if bar then
    local later = find(one, '\\n', bar + 1, true)
    while later do bar, later = later, find(one, '\\n', later + 1, true) end
    local key = sub(one, 1, bar - 1)
    local ttl = call('PTTL', prefix .. key)
    if ttl ~= -2 then
      found[n + 1], found[n + 2], found[n + 3] = key, sub(one, bar + 1), ttl
      n = n + 3
    end
  end
end
return found`;

type Timed = <T>(pending: Promise<T>) => Promise<T>;

/** Reads pages of records (of `bucket`, from `start` to `stop`): by script while Redis runs it. */
export function recordReader(
  commands: RedisCommands,
  prefix: string,
  timed: Timed,
): (bucket: string, start: number, stop: number) => Promise<RecordPage> {
  let scripts = true;
  const bytes = String(3 * LONGEST_RECORD);
  return async (bucket, start, stop) => {
    if (!scripts) return byTransaction(commands, prefix, timed, bucket, start, stop);
    let reply: unknown;
    try {
      reply = await timed(
        commands.eval(SCRIPT, [prefix, bucket, String(start), String(stop), bytes]),
      );
    } catch (error) {
      // No answer (Redis is gone or slow): as for any command, not a refusal of scripts.
      if (!isErrorAnswer(error)) throw error;
      // Scripts refused, or a bucket of the wrong type: the commands without the script tell
      // which (they fail too, with the plain error, unless scripts alone are refused).
      const page = await byTransaction(commands, prefix, timed, bucket, start, stop);
      scripts = false;
      return page;
    }
    return pageOf(reply, monotonicNow());
  };
}

/** The script's reply, checked: triples of a key, a text and a number. */
function pageOf(reply: unknown, at: number): RecordPage {
  if (!Array.isArray(reply) || reply.length % 3 !== 0)
    throw new Error("unexpected reply to the index's page script");
  const page: RecordPage = { keys: [], texts: [], ttls: [], at };
  for (let i = 0; i < reply.length; i += 3) {
    const key: unknown = reply[i];
    const text: unknown = reply[i + 1];
    const ttl: unknown = reply[i + 2];
    if (typeof key !== "string" || typeof text !== "string" || typeof ttl !== "number") continue;
    // The script's bound is in bytes: the one in code units, as without the script.
    if (key.length + 1 + text.length > LONGEST_RECORD) continue;
    page.keys.push(key);
    page.texts.push(text);
    page.ttls.push(ttl);
  }
  return page;
}

/** LRANGE, then a transaction of the PTTL of each record's key. */
async function byTransaction(
  commands: RedisCommands,
  prefix: string,
  timed: Timed,
  bucket: string,
  start: number,
  stop: number,
): Promise<RecordPage> {
  const records = await timed(commands.command(["LRANGE", bucket, String(start), String(stop)]));
  if (!Array.isArray(records)) throw new Error("unexpected reply to LRANGE of the cooldown index");
  const keys: string[] = [];
  const texts: string[] = [];
  for (const one of records) {
    if (typeof one !== "string" || one.length > LONGEST_RECORD) continue;
    const bar = one.lastIndexOf("\n");
    if (bar === -1) continue;
    // The key alone, copied: a slice would keep the whole record alive in the view.
    keys.push(` ${one.slice(0, bar)}`.slice(1));
    texts.push(one.slice(bar + 1));
  }
  const page: RecordPage = { keys: [], texts: [], ttls: [], at: monotonicNow() };
  if (keys.length === 0) return page;
  const ttls = await timed(commands.multi(keys.map((key) => ["PTTL", prefix + key])));
  page.at = monotonicNow();
  keys.forEach((key, i) => {
    const ttl = Number(ttls[i]);
    // Gone (over, or evicted), or no answer for it: no cooldown.
    if (ttl === -2 || Number.isNaN(ttl)) return;
    page.keys.push(key);
    page.texts.push(texts[i] as string);
    page.ttls.push(ttl);
  });
  return page;
}
