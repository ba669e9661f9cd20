// The in-process view of a RedisCooldownStore: the cooldowns that are active, as far as this
// replica has heard. Announcements are data from outside: whoever can publish on the channel
// must not grow it without bound, stall the event loop, or fill it so real cooldowns are lost.
// It is bounded by an estimate of the heap it holds (not by characters), keeps only the fields
// of an entry (never the parsed object as sent), and costs O(1) per announcement even when full:
// a full view stops taking entries (the store then asks Redis) and is swept once a second.

import { type EntryShape, entryShape } from "../untrusted/store-entry.js";
import { monotonicNow } from "./clock.js";
import { entryOfText } from "./redis-entry.js";
import { type CooldownEntry, ScopeIndex, scopeOfKey } from "./store.js";

/** What the view keeps of an entry: its fields (one object), or that Redis held something invalid there. */
interface Viewed {
  until: number;
  /** `undefined`: not an entry (answered as one, so the guard ignores it and reports it). */
  limitSource: EntryShape["limitSource"] | undefined;
  limit: string;
  status: number;
  resetsAt: number | undefined;
  bytes: number;
}

/** Bounds of a view (smaller ones for tests and the benchmark). */
export interface ViewLimits {
  maxEntries?: number;
  maxBytes?: number;
  /** What each key keeps alive beyond itself: a key cut from a Redis key holds its prefix. */
  keyPrefix?: string;
}

/** Most entries in a view: the cooldowns of 200,000 callers. */
export const MAX_VIEW_ENTRIES = 200_000;
/** Most heap a view holds, estimated per entry (measured: see `npm run bench`). */
export const MAX_VIEW_BYTES = 64 * 1024 * 1024;
/**
 * Fixed cost of an entry, with its characters on top (one byte each in an ASCII string, two
 * otherwise; a limit name shared with other entries counted once): above what `npm run bench`
 * measures (about 200 B + 1 B a character of the key and its prefix, https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/cooldown.md), so the
 * bound is never exceeded.
 */
const ENTRY_BYTES = 240;
/** Limit names up to this long are shared by the entries that carry them (a few per server). */
const SHARED_LIMIT_CHARACTERS = 256;
const MAX_SHARED_LIMITS = 1024;
/** An entry this library writes is well under this; anything longer is not one of ours. */
export const MAX_ENTRY_CHARACTERS = 4096;
/** How long an invalid value found in Redis is remembered as such (it is reported once). */
const INVALID_MS = 60_000;
/** The longest a view keeps anything: the longest timer. */
const MAX_LEFT_MS = 2 ** 31 - 1;

export class RedisView {
  readonly #entries = new Map<string, Viewed>();
  readonly #scopes: ScopeIndex;
  /** One string per limit name: 100,000 entries of one limit hold it once. */
  readonly #limits = new Map<string, string>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #keyPrefix: number;
  #bytes = 0;
  /** The view refused an entry for room: it may lack cooldowns until it is loaded again. */
  overflowed = false;

  constructor(limits: ViewLimits = {}) {
    this.#maxEntries = limits.maxEntries ?? MAX_VIEW_ENTRIES;
    this.#maxBytes = limits.maxBytes ?? MAX_VIEW_BYTES;
    this.#keyPrefix = heapOf(limits.keyPrefix ?? "");
    this.#scopes = new ScopeIndex(this.#maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Estimated heap held, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  mayHave(scope: string | undefined): boolean {
    return this.#scopes.mayHave(scope, monotonicNow());
  }

  /** The entry under `key` while it lasts, with `until` on this process's clock. */
  get(key: string): CooldownEntry | undefined {
    const viewed = this.#entries.get(key);
    if (viewed === undefined) return undefined;
    if (viewed.until <= monotonicNow()) {
      this.#forget(key, viewed);
      return undefined;
    }
    // Not an entry: handed on as the text it was, for the guard to ignore and report.
    if (viewed.limitSource === undefined) return "not a cooldown entry" as unknown as CooldownEntry;
    const entry: CooldownEntry = {
      until: viewed.until,
      limit: viewed.limit,
      limitSource: viewed.limitSource,
      status: viewed.status,
    };
    if (viewed.resetsAt !== undefined) entry.resetsAt = viewed.resetsAt;
    return entry;
  }

  /**
   * Notes `raw` under `key`, ending at the earlier of its own `until` and `notAfter`; the later
   * end of two wins. `offset` turns an `until` on another clock (the wall clock of the replicas)
   * into one on this process's monotonic clock, on which the view keeps every end: a step of
   * the wall clock later changes no entry already in it. Something not shaped like an entry is kept as invalid when Redis held it
   * (`stored`), else ignored. Returns false when the view had no room.
   */
  see(key: string, raw: unknown, notAfter: number, stored: boolean, offset = 0): boolean {
    return this.#take(key, entryShape(raw), notAfter, stored, monotonicNow(), offset);
  }

  /**
   * `see` for the text of a value found in Redis (read by the fast path when it can be); `now`
   * and `offset` may be given by a load that takes in thousands at once.
   */
  seeText(key: string, text: string, notAfter: number, now = monotonicNow(), offset = 0): boolean {
    return this.#take(key, entryOfText(text), notAfter, true, now, offset);
  }

  #take(
    key: string,
    shape: EntryShape | undefined,
    notAfter: number,
    stored: boolean,
    now: number,
    offset: number,
  ): boolean {
    if (shape === undefined && !stored) return true;
    let limit = shape?.limit ?? "";
    if (key.length + limit.length > MAX_ENTRY_CHARACTERS) return true;
    const end = shape === undefined ? now + INVALID_MS : shape.until + offset;
    const until = Math.min(end, notAfter, now + MAX_LEFT_MS);
    if (!(until > now)) return true;
    const known = this.#entries.get(key);
    if (known !== undefined && known.until >= until) return true;
    const shared = this.#limits.get(limit);
    if (shared !== undefined) limit = shared;
    else if (limit.length <= SHARED_LIMIT_CHARACTERS && this.#limits.size < MAX_SHARED_LIMITS) {
      // The first entry of a name pays for it (below); the table holds at most ~600 KB.
      this.#limits.set(limit, limit);
    }
    const bytes =
      ENTRY_BYTES + this.#keyPrefix + heapOf(key) + (shared === undefined ? heapOf(limit) : 0);
    if (known !== undefined) this.#forget(key, known);
    else if (this.#entries.size >= this.#maxEntries || this.#bytes + bytes > this.#maxBytes) {
      this.overflowed = true;
      return false;
    }
    this.#entries.set(key, {
      until,
      limitSource: shape?.limitSource,
      limit,
      status: shape?.status ?? 0,
      resetsAt: shape?.resetsAt,
      bytes,
    });
    this.#bytes += bytes;
    this.#scopes.note(scopeOfKey(key), until);
    return true;
  }

  /** Drops what is over; returns whether the view now has room for a tenth more. */
  sweep(): boolean {
    const now = monotonicNow();
    for (const [key, viewed] of this.#entries) if (viewed.until <= now) this.#forget(key, viewed);
    return this.#entries.size < this.#maxEntries * 0.9 && this.#bytes < this.#maxBytes * 0.9;
  }

  #forget(key: string, viewed: Viewed): void {
    this.#entries.delete(key);
    this.#bytes -= viewed.bytes;
  }
}

const WIDE = /[\u0080-\uffff]/;

/** Bytes the characters of `text` take on the heap: V8 keeps an ASCII string one byte a character. */
function heapOf(text: string): number {
  return WIDE.test(text) ? 2 * text.length : text.length;
}
