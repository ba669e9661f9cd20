// Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. The grammar is strict on
// purpose: `parseFloat` reads "2026-11-29T10:00:00Z" as 2026 seconds and "3 apples" as 3.

import { isDecimal } from "./decimal.js";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY = "(?:mon|tue|wed|thu|fri|sat|sun)";
const LONG_DAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
// Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, "i");
// Sunday, 06-Nov-94 08:49:37 GMT
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, "i");
// Sun Nov  6 08:49:37 1994
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, "i");

/**
 * Parses a `Retry-After` value into milliseconds from `now`. An HTTP-date in the past is 0.
 * Anything outside the grammar (`3 apples`, `-5`, `1e3`, ISO strings) is `undefined`.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "mcp-upstream-throttle";
 *
 * parseRetryAfter("120"); // 120000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", new Date("2015-10-21T07:27:00Z")); // 60000
 * parseRetryAfter("soon"); // undefined
 * ```
 */
export function parseRetryAfter(value: string, now: Date = new Date()): number | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const seconds = parseDeltaSeconds(text);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  const date = httpDateMs(text, now.getTime());
  return date === undefined ? undefined : Math.max(0, date - now.getTime());
}

// Past this, a delay is "longer than anything we report" and is clamped downstream; a number
// too long for a double (309+ digits) is not garbage, only very long.
const LONGEST_SECONDS = Number.MAX_SAFE_INTEGER / 1000;

/** Non-negative decimal seconds (`120`, `2.0`, `0.5`); no signs, exponents or units. */
export function parseDeltaSeconds(text: string): number | undefined {
  if (!isDecimal(text)) return undefined;
  return Math.min(Number(text), LONGEST_SECONDS);
}

/** The three HTTP-date forms of RFC 9110 §5.6.7; `undefined` for anything else. */
export function parseHttpDate(text: string, now: Date = new Date()): Date | undefined {
  const ms = httpDateMs(text, now.getTime());
  return ms === undefined ? undefined : new Date(ms);
}

/** `parseHttpDate` in epoch milliseconds; `nowMs` places RFC 850's two-digit years. */
export function httpDateMs(text: string, nowMs: number): number | undefined {
  const canonical = imfFixdateMs(text);
  if (canonical !== undefined) return canonical;
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(match[3], match[2], match[1], match[4], match[5], match[6]);
  match = RFC_850.exec(text);
  if (match) {
    // A two-digit year more than 50 years ahead is in the previous century (RFC 9110 §5.6.7).
    let year = 2000 + Number(match[3]);
    if (year > new Date(nowMs).getUTCFullYear() + 50) year -= 100;
    return utc(String(year), match[2], match[1], match[4], match[5], match[6]);
  }
  match = ASCTIME.exec(text);
  if (match) return utc(match[6], match[1], match[2], match[3], match[4], match[5]);
  return undefined;
}

const CANONICAL_MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};
const CANONICAL_DAYS = new Set(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);

/**
 * The form every server sends and every `Date` header carries ("Sun, 06 Nov 1994 08:49:37
 * GMT"), read by position: it is on the hot path of every detection that measures skew.
 * Other spellings fall through to the regular expressions.
 */
function imfFixdateMs(text: string): number | undefined {
  // Every response of the same second carries the same `Date`: the last one read is kept.
  if (text === lastFixdate) return lastFixdateMs;
  const ms = readImfFixdate(text);
  lastFixdate = text;
  lastFixdateMs = ms;
  return ms;
}

let lastFixdate = "";
let lastFixdateMs: number | undefined;

function readImfFixdate(text: string): number | undefined {
  if (text.length !== 29 || text[3] !== "," || !text.endsWith(" GMT")) return undefined;
  if (text[4] !== " " || text[7] !== " " || text[11] !== " " || text[16] !== " ") return undefined;
  if (text[19] !== ":" || text[22] !== ":" || !CANONICAL_DAYS.has(text.slice(0, 3)))
    return undefined;
  const month = CANONICAL_MONTHS[text.slice(8, 11)];
  const day = digits(text, 5, 2);
  const year = digits(text, 12, 4);
  const hour = digits(text, 17, 2);
  const minute = digits(text, 20, 2);
  const second = digits(text, 23, 2);
  if (month === undefined || day < 0 || year < 0 || hour < 0 || minute < 0 || second < 0)
    return undefined;
  return validUtc(year, month, day, hour, minute, second);
}

/** The decimal number in `text` at `start`, `length` digits long; -1 if any is no digit. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i += 1) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

function utc(
  yearText: string | undefined,
  monthText: string | undefined,
  dayText: string | undefined,
  hourText: string | undefined,
  minuteText: string | undefined,
  secondText: string | undefined,
): number | undefined {
  return validUtc(
    Number(yearText),
    MONTHS.indexOf(String(monthText).toLowerCase()),
    Number(String(dayText).trim()),
    Number(hourText),
    Number(minuteText),
    Number(secondText),
  );
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validUtc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  if (month < 0 || day < 1 || day > (DAYS_IN_MONTH[month] ?? 0)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  // 29 February exists only in leap years.
  if (month === 1 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) {
    return undefined;
  }
  return Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
}
