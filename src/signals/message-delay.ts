// A wait the upstream states only in its own words, as real APIs write it:
//   Firecrawl    "… or please retry after 37s, resets at …"
//   OpenAI, Groq "Please try again in 120ms." / "Please try again in 7m12.48s."
//   Gemini       "Please retry in 49.1s."
//   others       "Try again in 20 seconds." / "Retry after 2 minutes."
// Strict: one of four phrases, one space, then a duration in Go's compact form (`37s`, `1m30s`)
// or a number, one space and a unit word, ended by anything but a letter or a digit. Anything
// else ("try again in a few minutes", "retry after 2026-12-01") is no wait. One pass: the phrase
// expression has no unbounded repetition, and the duration is read by a scan.

import type { Echo } from "./echo.js";
import { parseGoDuration } from "./vendor-resets.js";

const PHRASE = /\b(?:retry after|retry in|retry again in|try again in|try again after) /gi;

/** Unit words after a number and a space, in milliseconds. */
const UNIT_WORDS: ReadonlyMap<string, number> = new Map([
  ["ms", 1],
  ["millisecond", 1],
  ["milliseconds", 1],
  ["s", 1000],
  ["sec", 1000],
  ["secs", 1000],
  ["second", 1000],
  ["seconds", 1000],
  ["min", 60_000],
  ["mins", 60_000],
  ["minute", 60_000],
  ["minutes", 60_000],
  ["h", 3_600_000],
  ["hour", 3_600_000],
  ["hours", 3_600_000],
]);

// A duration is short: a longer token is no duration a person would write.
const MAX_TOKEN = 32;

/**
 * The wait a message states in prose, in whole milliseconds, or `undefined` (for
 * "Please try again in 1m30s.", 90000). A sentence that only echoes the request's own text
 * (`echo`) is not the upstream's word and is skipped. Never throws; the result is finite and
 * non-negative.
 */
export function messageDelayMs(message: string, echo?: Echo): number | undefined {
  if (typeof message !== "string") return undefined;
  PHRASE.lastIndex = 0;
  for (let match = PHRASE.exec(message); match !== null; match = PHRASE.exec(message)) {
    const start = PHRASE.lastIndex;
    const ms = durationAt(message, start);
    if (ms !== undefined && !echo?.covers(match.index, durationEnd)) {
      PHRASE.lastIndex = 0;
      return ms;
    }
  }
  return undefined;
}

/** Where the duration `durationAt` read last ended: the end of the sentence an echo may cover. */
let durationEnd = 0;

/** The duration that starts at `start`: compact (`1m30s`) or spelled (`20 seconds`). */
function durationAt(text: string, start: number): number | undefined {
  durationEnd = start;
  let end = start;
  while (end < text.length && end - start <= MAX_TOKEN && isTokenChar(text.charCodeAt(end))) {
    end += 1;
  }
  if (end - start > MAX_TOKEN || end === start) return undefined;
  // A sentence's full stop is no part of the duration ("in 6.5s.").
  durationEnd = end;
  let token = text.slice(start, end);
  if (token.endsWith(".")) token = token.slice(0, -1);
  if (/^\d+(?:\.\d+)?$/.test(token)) return spelled(text, token, end);
  if (!/^\d/.test(token) || /[^0-9.a-z]/i.test(token)) return undefined;
  return finite(parseGoDuration(token.toLowerCase()));
}

/** A number, one space and a unit word (`20 seconds`), the word ended by no letter or digit. */
function spelled(text: string, number: string, at: number): number | undefined {
  if (text.charCodeAt(at) !== 0x20) return undefined;
  let end = at + 1;
  while (end < text.length && end - at <= 13 && isLetter(text.charCodeAt(end))) end += 1;
  if (end < text.length && isTokenChar(text.charCodeAt(end)) && text[end] !== ".") return undefined;
  durationEnd = end;
  const unitMs = UNIT_WORDS.get(text.slice(at + 1, end).toLowerCase());
  return unitMs === undefined ? undefined : finite(Math.ceil(Number(number) * unitMs));
}

function finite(ms: number | undefined): number | undefined {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** A letter, a digit or `.`: what a duration token is made of. */
function isTokenChar(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2e;
}
