// What a RedisCooldownStore says on its channel, and how what it hears there is read. Anyone who
// can PUBLISH on a shared Redis can speak there too, so what is heard is data from outside: the
// work per message is bounded (its length is checked before it is parsed; nothing in it is
// looked at beyond the fields of an announcement), and what it names passes the view's checks.

import { isObject } from "../internal/is-object.js";
import { parse } from "./redis-entry.js";
import { MAX_ENTRY_CHARACTERS } from "./redis-view.js";

/** The layout of entries and announcements this store writes (the index is filled). */
export const LAYOUT = 1;
/** A key and its entry take at most MAX_ENTRY_CHARACTERS; the rest of an announcement is small. */
const MAX_ANNOUNCEMENT_CHARACTERS = MAX_ENTRY_CHARACTERS + 256;

/** What a message on the channel says, as far as the store is concerned. */
export type Heard =
  /** A beat of this store's own: the subscription carries messages, `sentAt` (its clock) on. */
  | { own: true; sentAt: number | undefined }
  /** Another replica's (`older`: of a version that fills no index), with a throttle or not. */
  | { own: false; older: boolean; throttle: Throttle | undefined };

export interface Throttle {
  key: string;
  /** Time left when it was sent, in milliseconds (more than 0). */
  left: number;
  /** The entry as sent (checked by the view). */
  entry: unknown;
}

/** The announcement of a throttle: its key, the time left, its entry (its end on the wall clock). */
export function announcement(origin: string, key: string, left: number, entry: object): string {
  return JSON.stringify({ o: origin, v: LAYOUT, k: key, t: left, e: entry });
}

/** A heartbeat: each replica hears its own, and learns from `s` how late the channel delivers. */
export function beat(origin: string, n: number, sentAt: number): string {
  return JSON.stringify({ o: origin, v: LAYOUT, h: n, s: sentAt });
}

/** Reads a message heard on the channel; `undefined` for anything that is none of the store's. */
export function hear(message: string, origin: string): Heard | undefined {
  // Too big to be an entry (and not worth the parse), or not shaped like an announcement.
  if (message.length > MAX_ANNOUNCEMENT_CHARACTERS || message.charCodeAt(0) !== 123) return;
  const heard = parse(message);
  if (!isObject(heard) || typeof heard.o !== "string") return undefined;
  if (heard.o === origin) {
    if (heard.h === undefined) return undefined;
    return { own: true, sentAt: typeof heard.s === "number" ? heard.s : undefined };
  }
  const { k: key, t: left, e: entry } = heard;
  const throttle =
    typeof key === "string" && typeof left === "number" && left > 0
      ? { key, left, entry }
      : undefined;
  return { own: false, older: heard.v === undefined, throttle };
}
