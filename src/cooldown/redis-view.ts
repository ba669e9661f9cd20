// The in-process view of a RedisCooldownStore: the cooldowns that are active, as far as this
// replica has heard. Announcements are data from outside: whoever can publish on the channel
// must not grow it without bound, stall the event loop, or fill it so real cooldowns are lost.
// It is bounded by an estimate of the heap it holds (not by characters), keeps only the fields
// of an entry (never the parsed object as sent), and costs O(1) per announcement even when full:
// a full view stops taking entries (the store then asks Redis) and is swept once a second.

import { type EntryShape, entryShape } from "../untrusted/store-entry.js";
import { monotonicNow } from "./clock.js";
import { type CooldownEntry, ScopeIndex, scopeOfKey } from "./store.js";

/** What the view keeps of an entry: its fields, or that Redis held something invalid there. */
interface Viewed {
  until: number;
  /** `undefined`: not an entry (answered as one, so the guard ignores it and reports it). */
  shape: EntryShape | undefined;
  bytes: number;
}

/** Most entries in a view: the cooldowns of 200,000 callers. */
export const MAX_VIEW_ENTRIES = 200_000;
/** Most heap a view holds, estimated per entry (measured: see `npm run bench`). */
export const MAX_VIEW_BYTES = 64 * 1024 * 1024;
/**
 * Fixed cost of an entry, with its characters counted twice on top: an over-estimate (measured:
 * 271 B a real entry with a 64-hex partition, estimated 476 B), so 64 MiB is never exceeded.
 */
const ENTRY_BYTES = 320;
/** An entry this library writes is well under this; anything longer is not one of ours. */
export const MAX_ENTRY_CHARACTERS = 4096;
/** How long an invalid value found in Redis is remembered as such (it is reported once). */
const INVALID_MS = 60_000;
/** The longest a view keeps anything: the longest timer. */
const MAX_LEFT_MS = 2 ** 31 - 1;

export class RedisView {
  readonly #entries = new Map<string, Viewed>();
  readonly #scopes = new ScopeIndex(MAX_VIEW_ENTRIES);
  #bytes = 0;
  /** The view refused an entry for room: it may lack cooldowns until it is loaded again. */
  overflowed = false;

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
    const shape = viewed.shape;
    // Not an entry: handed on as the text it was, for the guard to ignore and report.
    if (shape === undefined) return "not a cooldown entry" as unknown as CooldownEntry;
    const entry: CooldownEntry = {
      until: viewed.until,
      limit: shape.limit,
      limitSource: shape.limitSource,
      status: shape.status,
    };
    if (shape.resetsAt !== undefined) entry.resetsAt = shape.resetsAt;
    return entry;
  }

  /**
   * Notes `raw` under `key`, ending at the earlier of its own `until` and `notAfter`; the later
   * end of two wins. Something not shaped like an entry is kept as invalid when Redis held it
   * (`stored`), else ignored. Returns false when the view had no room.
   */
  see(key: string, raw: unknown, notAfter: number, stored: boolean): boolean {
    const shape = entryShape(raw);
    const now = monotonicNow();
    if (shape === undefined && !stored) return true;
    const limit = shape?.limit ?? "";
    if (key.length + limit.length > MAX_ENTRY_CHARACTERS) return true;
    const until = Math.min(shape?.until ?? now + INVALID_MS, notAfter, now + MAX_LEFT_MS);
    if (!(until > now)) return true;
    const known = this.#entries.get(key);
    if (known !== undefined && known.until >= until) return true;
    const bytes = ENTRY_BYTES + 2 * (key.length + limit.length);
    if (known !== undefined) this.#forget(key, known);
    else if (this.#entries.size >= MAX_VIEW_ENTRIES || this.#bytes + bytes > MAX_VIEW_BYTES) {
      this.overflowed = true;
      return false;
    }
    this.#entries.set(key, { until, shape, bytes });
    this.#bytes += bytes;
    this.#scopes.note(scopeOfKey(key), until);
    return true;
  }

  /** Drops what is over; returns whether the view now has room for a tenth more. */
  sweep(): boolean {
    const now = monotonicNow();
    for (const [key, viewed] of this.#entries) if (viewed.until <= now) this.#forget(key, viewed);
    return this.#entries.size < MAX_VIEW_ENTRIES * 0.9 && this.#bytes < MAX_VIEW_BYTES * 0.9;
  }

  #forget(key: string, viewed: Viewed): void {
    this.#entries.delete(key);
    this.#bytes -= viewed.bytes;
  }
}

/** The parsed text, or the text itself when it is not JSON (an invalid entry). */
export function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
