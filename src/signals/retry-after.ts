// Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. The grammar is strict on
// purpose: `parseFloat` reads "2026-11-29T10:00:00Z" as 2026 seconds and "3 apples" as 3.

const DELTA_SECONDS = /^\d+(?:\.\d+)?$/;

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
 */
export function parseRetryAfter(value: string, now: Date = new Date()): number | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const seconds = parseDeltaSeconds(text);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  const date = parseHttpDate(text, now);
  if (date === undefined) return undefined;
  return Math.max(0, date.getTime() - now.getTime());
}

/** Non-negative decimal seconds (`120`, `2.0`, `0.5`); no signs, exponents or units. */
export function parseDeltaSeconds(text: string): number | undefined {
  if (!DELTA_SECONDS.test(text)) return undefined;
  const seconds = Number(text);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** The three HTTP-date forms of RFC 9110 §5.6.7; `undefined` for anything else. */
export function parseHttpDate(text: string, now: Date = new Date()): Date | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(match[3], match[2], match[1], match[4], match[5], match[6]);
  match = RFC_850.exec(text);
  if (match) {
    // A two-digit year more than 50 years ahead is in the previous century (RFC 9110 §5.6.7).
    let year = 2000 + Number(match[3]);
    if (year > now.getUTCFullYear() + 50) year -= 100;
    return utc(String(year), match[2], match[1], match[4], match[5], match[6]);
  }
  match = ASCTIME.exec(text);
  if (match) return utc(match[6], match[1], match[2], match[3], match[4], match[5]);
  return undefined;
}

function utc(
  yearText: string | undefined,
  monthText: string | undefined,
  dayText: string | undefined,
  hourText: string | undefined,
  minuteText: string | undefined,
  secondText: string | undefined,
): Date | undefined {
  const year = Number(yearText);
  const month = MONTHS.indexOf(String(monthText).toLowerCase());
  const day = Number(String(dayText).trim());
  const hour = Number(hourText);
  const minute = Number(minuteText);
  const second = Number(secondText);
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(Date.UTC(year, month, day, hour, minute, Math.min(second, 59)));
  // Date.UTC rolls "31 Feb" over into March; such a date is not a date.
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  return date;
}
