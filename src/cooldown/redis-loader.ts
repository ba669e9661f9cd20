// How a RedisCooldownStore's view is loaded (the store decides when, and from where): from the
// index every write fills (redis-index.ts, a page at a time read by redis-records.ts), or from the
// keyspace, a page at a time (SCAN + MGET, redis-page.ts), for entries of writers that fill no
// index; and the copy of the keyspace into the index that lets every later load read the index.
// Whatever is found passes the same checks on the way into the view, in chunks of ~1,000 entries
// (a few ms) that yield to the event loop.

import { monotonicNow, type WallClock, wallToMonotonic } from "./clock.js";
import type { RedisCommands } from "./redis-client.js";
import { entryOfText } from "./redis-entry.js";
import {
  INDEX_VERSION,
  type IndexKeys,
  indexCommands,
  readIndex,
  record,
  recordsAsTheyAre,
} from "./redis-index.js";
import { type Page, pageReader } from "./redis-page.js";
import { type RecordPage, recordReader } from "./redis-records.js";
import { MAX_ENTRY_CHARACTERS } from "./redis-view.js";

/** Keys asked for per page from the keyspace: a reply (~160 KB) is decoded in a few ms. */
const SCAN_COUNT = 1000;
/** Entries of a page of the keyspace taken into the view between two yields (a few ms each). */
const LOAD_CHUNK = 1000;
/** The longest a view keeps anything: the longest timer. */
const FAR_MS = 2 ** 31 - 1;

export interface LoaderContext {
  commands: RedisCommands;
  prefix: string;
  channel: string;
  keys: IndexKeys;
  /** A command with the store's own timeout (one that fails marks Redis down). */
  timed<T>(pending: Promise<T>): Promise<T>;
  /** The wall clock the ends in Redis are on. */
  wall: WallClock;
  /**
   * Into the view: the text found under `key` (its end on the wall clock; `offset` turns it into
   * one on this process's monotonic clock, whose time is `now`), at most until `notAfter`.
   */
  see(key: string, text: string, notAfter: number, now: number, offset: number): void;
}

export class ViewLoader {
  readonly #context: LoaderContext;
  readonly #readPage: ReturnType<typeof pageReader>;
  readonly #readRecords: ReturnType<typeof recordReader>;

  constructor(context: LoaderContext) {
    this.#context = context;
    this.#readPage = pageReader(context.commands, context.timed);
    this.#readRecords = recordReader(context.commands, context.prefix, context.timed);
  }

  /** Whether the marker says the index holds every entry (a marker of the wrong type does not). */
  async complete(): Promise<boolean> {
    const { commands, keys, timed } = this.#context;
    try {
      return (await timed(commands.command(["HGET", keys.layout, "index"]))) === INDEX_VERSION;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("WRONGTYPE")) return false;
      throw error;
    }
  }

  /** Says the index holds every entry (after a copy), or no longer (an older replica was heard). */
  async mark(complete: boolean): Promise<void> {
    const { commands, keys, timed } = this.#context;
    await timed(
      commands.command(
        complete ? ["HSET", keys.layout, "index", INDEX_VERSION] : ["HDEL", keys.layout, "index"],
      ),
    );
  }

  /**
   * The index into the view, a page of records at a time (each page one chunk); false when it
   * cannot be used (too many buckets). Stops early (true) once `stale`.
   */
  fromIndex(stale: () => boolean): Promise<boolean> {
    const { commands, keys, timed, wall } = this.#context;
    return readIndex(commands, keys, wall(), timed, this.#readRecords, async (page) => {
      // Taken in after a yield: the client decoded the page in this turn of the event loop,
      // and the two together would stall it twice as long.
      await yieldToLoop();
      if (stale()) return false;
      this.#foundWithTtl(page);
      return !stale();
    });
  }

  /**
   * Records into the view, each ending no later than its key's own TTL: Redis counts that down
   * whatever any replica's clock says, so a record written by a replica whose clock was ahead
   * locks no one out past it. A record whose key is gone (over, or evicted) is not in the page.
   */
  #foundWithTtl({ keys, texts, ttls, at }: RecordPage): void {
    const now = monotonicNow();
    const offset = wallToMonotonic(this.#context.wall);
    for (let i = 0; i < keys.length; i += 1) {
      const ttl = ttls[i] as number;
      const notAfter = ttl >= 0 ? at + ttl : now + FAR_MS;
      this.#found(keys[i] as string, texts[i], now, offset, notAfter);
    }
  }

  /** The keyspace into the view (SCAN + MGET, a page at a time), until `stale`. */
  async fromKeys(stale: () => boolean): Promise<void> {
    const skip = this.#context.prefix.length;
    for await (const { keys, values, ttls } of this.#pages(stale)) {
      for (let start = 0; start < keys.length; start += LOAD_CHUNK) {
        const now = monotonicNow();
        const offset = wallToMonotonic(this.#context.wall);
        const end = Math.min(start + LOAD_CHUNK, keys.length);
        for (let i = start; i < end; i += 1) {
          // No later than the key's own TTL, as a record of the index (gone: its value is null).
          const ttl = ttls[i] ?? -1;
          const notAfter = ttl >= 0 ? now + ttl : now + FAR_MS;
          this.#found((keys[i] as string).slice(skip), values[i], now, offset, notAfter);
        }
        await yieldToLoop();
        if (stale()) return;
      }
    }
  }

  /**
   * Copies every entry of the keyspace that the index lacks into it (what is no entry stays out:
   * it is ignored on a read anyway), until `stale`. A record already in the index is not written
   * again, so the copy may run any number of times: the index keeps one record per write.
   */
  async copyKeysIntoIndex(stale: () => boolean): Promise<void> {
    const { commands, keys: indexKeys, prefix, timed, wall } = this.#context;
    const present = await this.#indexed(stale);
    for await (const { keys, values } of this.#pages(stale)) {
      const now = wall();
      const records: { key: string; text: string; until: number }[] = [];
      keys.forEach((key, i) => {
        const text = values[i];
        if (typeof text !== "string" || text.length > MAX_ENTRY_CHARACTERS) return;
        const until = entryOfText(text)?.until;
        const short = key.slice(prefix.length);
        if (until === undefined || !(until > now) || present.has(record(short, text))) return;
        records.push({ key: short, text, until });
      });
      const write = indexCommands(indexKeys, records, now);
      if (write.length > 0) await timed(commands.multi(write));
      await yieldToLoop();
    }
  }

  /** The records the index holds now (its live buckets), to leave out of a copy. */
  async #indexed(stale: () => boolean): Promise<Set<string>> {
    const { commands, keys, timed, wall } = this.#context;
    const present = new Set<string>();
    const read = recordsAsTheyAre(commands, timed);
    await readIndex(commands, keys, wall(), timed, read, async (records) => {
      for (const one of records) if (typeof one === "string") present.add(one);
      return !stale();
    });
    return present;
  }

  /** A key and its value found in Redis (in the keyspace or the index), checked the same way. */
  #found(key: string, raw: unknown, now: number, offset: number, notAfter = now + FAR_MS): void {
    // Too big to be an entry this library wrote: left out of the view (no lock-out).
    if (typeof raw !== "string" || raw.length > MAX_ENTRY_CHARACTERS) return;
    if (this.#context.prefix + key === this.#context.channel) return;
    this.#context.see(key, raw, notAfter, now, offset);
  }

  /** Every page of keys of the prefix and their values (the next asked for meanwhile), until `stop`. */
  async *#pages(stop: () => boolean): AsyncGenerator<Page> {
    const { prefix } = this.#context;
    const pattern = `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
    const read = (cursor: string) => quiet(this.#readPage(cursor, pattern, SCAN_COUNT));
    let pending = read("0");
    for (;;) {
      const page = await pending;
      if (stop()) return;
      const next = page.cursor === "0" ? undefined : read(page.cursor);
      yield page;
      if (next === undefined || stop()) return;
      pending = next;
    }
  }
}

/** `pending`, with its rejection handled even when no one awaits it (a load that stopped early). */
function quiet<T>(pending: Promise<T>): Promise<T> {
  pending.catch(() => {});
  return pending;
}

/** Lets other work run between chunks of a load: no stall of the event loop. */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}
