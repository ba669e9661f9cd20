// Reset headers of single vendors, in the units each vendor chose.

import type { HeaderReader } from "./headers.js";

// Go's time.Duration text, as OpenAI sends it: "6m0s", "12ms", "1.5s", "1h2m3s".
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_PART = /(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g;
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration in milliseconds, or `undefined` when the text is not one. */
export function parseGoDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!GO_DURATION.test(trimmed)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(GO_PART)) {
    ms += Number(amount) * (UNIT_MS[unit ?? ""] ?? Number.NaN);
  }
  return Number.isFinite(ms) ? Math.ceil(ms) : undefined;
}

// RFC 3339 date-time (section 5.6), as Anthropic sends it: "2026-11-29T12:00:30Z".
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date-time in epoch milliseconds, or `undefined`. */
export function parseRfc3339(text: string): number | undefined {
  const trimmed = text.trim();
  if (!RFC_3339.test(trimmed)) return undefined;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? undefined : ms;
}

/** One quota a vendor reports: its remaining header and its reset header. */
interface Quota {
  remaining: string;
  reset: string;
}

/**
 * The reset of the exhausted quotas (remaining `0`), the latest of them; when none reports
 * `0`, the latest of all. `parse` turns a reset header into a comparable number.
 */
export function latestReset(
  headers: HeaderReader,
  quotas: readonly Quota[],
  parse: (text: string) => number | undefined,
): { header: string; value: number } | undefined {
  let exhausted: { header: string; value: number } | undefined;
  let any: { header: string; value: number } | undefined;
  for (const quota of quotas) {
    const text = headers.get(quota.reset);
    const value = text === undefined ? undefined : parse(text);
    if (value === undefined) continue;
    const candidate = { header: quota.reset, value };
    if (any === undefined || value > any.value) any = candidate;
    if (
      headers.get(quota.remaining)?.trim() === "0" &&
      (exhausted === undefined || value > exhausted.value)
    ) {
      exhausted = candidate;
    }
  }
  return exhausted ?? any;
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
