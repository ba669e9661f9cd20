// Reading the text of an entry found in Redis, 100,000 at a time when a view loads. Most of them
// are written by this library in one exact form, `{"until":…,"limit":"…","limitSource":"…",
// "status":…}` (and `"resetsAt":…` after it): that form is matched by one regular expression and
// turned into the object JSON.parse would give, at about half the cost. Anything else, however
// close, goes the long way (JSON.parse). Either way the object then passes the one door for
// store entries (entryShape): the fast path parses, it never decides what is valid.

import { type EntryShape, entryShape } from "../untrusted/store-entry.js";

/** A JSON number, exactly as JSON.parse reads it (so `Number` gives the same value). */
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`;
/** A JSON string without escapes: any code unit but `"`, `\` and the controls JSON forbids. */
const PLAIN_STRING = String.raw`"([^"\\\u0000-\u001f]*)"`;
const WRITTEN = new RegExp(
  String.raw`^\{"until":(${NUMBER}),"limit":${PLAIN_STRING},"limitSource":${PLAIN_STRING},"status":(${NUMBER})(?:,"resetsAt":(${NUMBER}))?\}$`,
);

/** What JSON.parse gives for `text` when it is in the form this library writes; else `undefined`. */
export function parseWritten(text: string): Record<string, unknown> | undefined {
  const match = WRITTEN.exec(text);
  if (match === null) return undefined;
  const [, until, limit, limitSource, status, resetsAt] = match;
  const entry: Record<string, unknown> = {
    until: Number(until),
    limit,
    limitSource,
    status: Number(status),
  };
  if (resetsAt !== undefined) entry.resetsAt = Number(resetsAt);
  return entry;
}

/** The parsed text, or the text itself when it is not JSON (an invalid entry). */
export function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The fields of the entry `text` holds, or `undefined` when it holds none: `entryShape(parse(text))`. */
export function entryOfText(text: string): EntryShape | undefined {
  return entryShape(parseWritten(text) ?? parse(text));
}
