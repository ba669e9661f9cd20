// Reset headers of single vendors, in the units each vendor chose.

import type { DelaySource } from "./delay-source.js";
import type { HeaderReader } from "./headers.js";

// Go's time.Duration text, as OpenAI sends it: "6m0s", "12ms", "1.5s", "1h2m3s": one or more
// parts, each a decimal number and a unit (ns, us, µs or μs, ms, s, m, h). Read by one scan
// (test/signals/scanners.test.ts holds it equal to the regular expressions it replaced).
const NANOSECOND_MS = 1e-6;
const MICROSECOND_MS = 1e-3;
const MICRO_SIGN = 0xb5;
const GREEK_MU = 0x3bc;

/** A Go duration in milliseconds, or `undefined` when the text is not one. */
export function parseGoDuration(text: string): number | undefined {
  const trimmed = text.trim();
  const length = trimmed.length;
  if (length === 0) return undefined;
  let ms = 0;
  let i = 0;
  while (i < length) {
    const from = i;
    let whole = 0;
    while (i < length && isDigit(trimmed.charCodeAt(i))) {
      whole = whole * 10 + (trimmed.charCodeAt(i) - 0x30);
      i += 1;
    }
    if (i === from) return undefined;
    let exact = i - from <= 15;
    if (trimmed.charCodeAt(i) === 0x2e) {
      const point = i;
      i += 1;
      while (i < length && isDigit(trimmed.charCodeAt(i))) i += 1;
      if (i === point + 1) return undefined;
      exact = false;
    }
    // Up to 15 digits are exact as they were summed; anything else is read as `Number` reads it.
    const amount = exact ? whole : Number(trimmed.slice(from, i));
    const unit = trimmed.charCodeAt(i);
    const next = trimmed.charCodeAt(i + 1);
    let unitMs: number;
    if (
      next === 0x73 &&
      (unit === 0x6e || unit === 0x75 || unit === MICRO_SIGN || unit === GREEK_MU || unit === 0x6d)
    ) {
      unitMs = unit === 0x6e ? NANOSECOND_MS : unit === 0x6d ? 1 : MICROSECOND_MS;
      i += 2;
    } else if (unit === 0x73 || unit === 0x6d || unit === 0x68) {
      unitMs = unit === 0x73 ? 1000 : unit === 0x6d ? 60_000 : 3_600_000;
      i += 1;
    } else {
      return undefined;
    }
    ms += amount * unitMs;
  }
  return Number.isFinite(ms) ? Math.ceil(ms) : undefined;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// RFC 3339 date-time (section 5.6), as Anthropic sends it: "2026-11-29T12:00:30Z".
const RFC_3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):\d{2}(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time in epoch milliseconds, or `undefined`. An impossible one (30 February,
 * 31 April, 29 February of a common year, hour 24) is none: `Date.parse` alone rolls it over.
 */
export function parseRfc3339(text: string): number | undefined {
  const trimmed = text.trim();
  const match = RFC_3339.exec(trimmed);
  if (match === null) return undefined;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59) return undefined;
  if (match[6] !== undefined && (Number(match[6]) > 23 || Number(match[7]) > 59)) return undefined;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? undefined : ms;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether day `day` of month `month` (1 to 12) of `year` exists (RFC 3339 section 5.7). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

// ISO 8601 to the minute, as Atlassian writes `X-RateLimit-Reset` ("2024-01-01T12:05Z"): no
// seconds, and a zone (`Z` or an offset) always; a local time without one is no instant.
const ISO_MINUTES = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** An ISO 8601 date-time without seconds in epoch milliseconds, or `undefined`. */
export function parseIsoMinutes(text: string): number | undefined {
  const match = ISO_MINUTES.exec(text.trim());
  if (match === null) return undefined;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(match[7] ?? 0);
  const offsetMinutes = Number(match[8] ?? 0);
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59) return undefined;
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, 0, 0);
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000;
  return date.getTime() - (match[6] === "-" ? -offsetMs : offsetMs);
}

/** One quota a vendor reports: its remaining header and its reset header. */
interface Quota {
  remaining: string;
  /** A fixed name the library knows, so it may serve as the delay source. */
  reset: DelaySource;
}

/**
 * The reset of the exhausted quotas (remaining `0`), the latest of them; when none reports
 * `0`, the latest of all. `parse` turns a reset header into a comparable number.
 */
export function latestReset(
  headers: HeaderReader,
  quotas: readonly Quota[],
  parse: (text: string) => number | undefined,
): { header: DelaySource; value: number } | undefined {
  // Indexes, not candidate objects: this runs on every OpenAI and Anthropic throttle.
  let exhausted = -1;
  let exhaustedValue = 0;
  let any = -1;
  let anyValue = 0;
  for (let index = 0; index < quotas.length; index += 1) {
    const quota = quotas[index] as Quota;
    const text = headers.get(quota.reset);
    const value = text === undefined ? undefined : parse(text);
    if (value === undefined) continue;
    if (any === -1 || value > anyValue) {
      any = index;
      anyValue = value;
    }
    if (
      (exhausted === -1 || value > exhaustedValue) &&
      headers.get(quota.remaining)?.trim() === "0"
    ) {
      exhausted = index;
      exhaustedValue = value;
    }
  }
  if (exhausted !== -1)
    return { header: (quotas[exhausted] as Quota).reset, value: exhaustedValue };
  return any === -1 ? undefined : { header: (quotas[any] as Quota).reset, value: anyValue };
}

/** OpenAI: `x-ratelimit-reset-requests` / `-tokens` (Go durations). */
export const OPENAI_QUOTAS: readonly Quota[] = [
  { remaining: "x-ratelimit-remaining-requests", reset: "x-ratelimit-reset-requests" },
  { remaining: "x-ratelimit-remaining-tokens", reset: "x-ratelimit-reset-tokens" },
];

/** Anthropic: `anthropic-ratelimit-*-reset` (RFC 3339). */
export const ANTHROPIC_QUOTAS: readonly Quota[] = [
  {
    remaining: "anthropic-ratelimit-requests-remaining",
    reset: "anthropic-ratelimit-requests-reset",
  },
  { remaining: "anthropic-ratelimit-tokens-remaining", reset: "anthropic-ratelimit-tokens-reset" },
  {
    remaining: "anthropic-ratelimit-input-tokens-remaining",
    reset: "anthropic-ratelimit-input-tokens-reset",
  },
  {
    remaining: "anthropic-ratelimit-output-tokens-remaining",
    reset: "anthropic-ratelimit-output-tokens-reset",
  },
];

// Zendesk: an endpoint's own quota, one field per endpoint, beside the account-wide fields
// ("Best practices for avoiding rate limiting"):
//   zendesk-ratelimit-tickets-index: total=100; remaining=99; resets=41
// `resets` is the seconds until the endpoint's quota is restored.
const ZENDESK_PREFIX = "zendesk-ratelimit-";
const ZENDESK_ENDPOINT = /^[a-z0-9]+(?:[-_][a-z0-9]+){0,7}$/;
const ZENDESK_PART = /^(total|remaining|resets)=(\d{1,12})$/;
const MAX_ZENDESK_NAME = ZENDESK_PREFIX.length + 64;

/** A Zendesk endpoint quota's value: `total=…; remaining=…; resets=…`, in any order. */
export function parseZendeskQuota(
  text: string,
): { total?: number; remaining?: number; resets?: number } | undefined {
  const parts = text.split(";", 4);
  if (parts.length > 3) return undefined;
  const quota: { total?: number; remaining?: number; resets?: number } = {};
  for (const part of parts) {
    const match = ZENDESK_PART.exec(part.trim());
    if (match === null) return undefined;
    const key = match[1] as "total" | "remaining" | "resets";
    // Said twice is said ambiguously.
    if (quota[key] !== undefined) return undefined;
    quota[key] = Number(match[2]);
  }
  return quota;
}

/**
 * The exhausted Zendesk endpoint quota (`remaining=0`) that resets last: its endpoint (the
 * limit's name, checked as one later) and its wait. `undefined` when no endpoint quota is spent.
 * The field's own name is never handed out: the upstream chose it.
 */
export function zendeskExhausted(
  headers: HeaderReader,
): { endpoint: string; ms: number } | undefined {
  let found: { endpoint: string; ms: number } | undefined;
  for (const name of headers.names()) {
    if (!name.startsWith(ZENDESK_PREFIX) || name.length > MAX_ZENDESK_NAME) continue;
    const endpoint = name.slice(ZENDESK_PREFIX.length);
    if (!ZENDESK_ENDPOINT.test(endpoint)) continue;
    const text = headers.get(name);
    const quota = text === undefined ? undefined : parseZendeskQuota(text);
    if (quota?.remaining !== 0 || quota.resets === undefined) continue;
    const ms = quota.resets * 1000;
    if (found === undefined || ms > found.ms) found = { endpoint, ms };
  }
  return found;
}
