// Rules that many providers share in their quota headers, so that a new provider needs no code:
//
// - a value per policy in one field, read pairwise with its remaining field (Brave Search:
//   `X-RateLimit-Remaining: 0, 9000` with `X-RateLimit-Reset: 1, 1419704`): the exhausted
//   policy's reset wins;
// - a remaining quota written as a decimal (`0.0`, Reddit);
// - a family of `x-…-ratelimit-…-reset` fields, each paired with its `…-remaining` (Linear's
//   `X-RateLimit-Requests-Reset`, Sentry's `X-Sentry-Rate-Limit-Reset`): the reset of the
//   exhausted one wins, else the latest.

import { isDecimal } from "./decimal.js";
import type { HeaderReader } from "./headers.js";
import { parseResetValue, type ResetValue } from "./reset.js";
import { parseIsoMinutes, parseRfc3339 } from "./vendor-resets.js";

/** A remaining-quota value that says a policy is used up: `0`, `0.0`, or a `0` in a list. */
export function saysExhausted(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === "0") return true;
  for (const part of value.split(",")) {
    const text = part.trim();
    if (isDecimal(text) && Number(text) === 0) return true;
  }
  return false;
}

/** A reset in the header's own terms, and whether its policy is exhausted. */
interface Candidate {
  reset: ResetValue;
  exhausted: boolean;
}

// One header line, at most this many policies (Brave sends two).
const MAX_POLICIES = 16;

/**
 * A reset value: epoch ms, epoch s or delta s (by magnitude), or an RFC 3339 time, or an ISO 8601
 * time to the minute (Atlassian).
 */
function resetOf(text: string): ResetValue | undefined {
  const numeric = parseResetValue(text);
  if (numeric !== undefined) return numeric;
  const epochMs = parseRfc3339(text) ?? parseIsoMinutes(text);
  return epochMs === undefined ? undefined : { epochMs };
}

function candidates(reset: string, remaining: string | undefined): Candidate[] {
  const resets = reset.split(",", MAX_POLICIES + 1);
  if (resets.length > MAX_POLICIES) return [];
  const left = remaining?.split(",", MAX_POLICIES + 1) ?? [];
  const found: Candidate[] = [];
  resets.forEach((text, index) => {
    const value = resetOf(text);
    if (value === undefined) return;
    // Paired by position when both list the policies; a single remaining value covers all.
    const paired =
      left.length === resets.length ? left[index] : left.length === 1 ? left[0] : undefined;
    found.push({ reset: value, exhausted: saysExhausted(paired?.trim()) });
  });
  return found;
}

/** Milliseconds from `now`, to compare resets written in different units. */
function waitOf(reset: ResetValue, now: number): number {
  return "deltaMs" in reset ? reset.deltaMs : reset.epochMs - now;
}

/** The reset of the exhausted policies (the latest of them); when none is marked, the latest. */
function pick(found: readonly Candidate[], now: number): ResetValue | undefined {
  let exhausted: Candidate | undefined;
  let any: Candidate | undefined;
  for (const candidate of found) {
    const wait = waitOf(candidate.reset, now);
    if (any === undefined || wait > waitOf(any.reset, now)) any = candidate;
    if (candidate.exhausted && (exhausted === undefined || wait > waitOf(exhausted.reset, now))) {
      exhausted = candidate;
    }
  }
  return (exhausted ?? any)?.reset;
}

/**
 * A reset field read with its remaining field: one value, or one per policy. `undefined` when
 * the field is absent or holds nothing usable.
 */
export function pairedReset(
  headers: HeaderReader,
  resetName: string,
  remainingName: string,
  now: number,
): ResetValue | undefined {
  const reset = headers.get(resetName);
  if (reset === undefined) return undefined;
  // The common case, one policy: no list to pair.
  if (!reset.includes(",")) return resetOf(reset);
  return pick(candidates(reset, headers.get(remainingName)), now);
}

// `x-` then up to three words, `ratelimit` or `rate-limit`, up to three words, `reset`.
const FAMILY_RESET = /^x-(?:[a-z0-9]+-){0,3}rate-?limit-(?:[a-z0-9]+-){0,3}reset$/;
// The two fields every provider of the family shares are read by their own rules first.
const COMMON = new Set(["x-ratelimit-reset", "x-rate-limit-reset"]);
const MAX_NAME = 64;

/**
 * Every `x-…-ratelimit-…-reset` field, paired with its `…-remaining`: the exhausted one's reset
 * (the latest of those), else the latest of all. Per-policy lists are read as above. The field's
 * own name stays here: the upstream chose it.
 */
export function familyReset(headers: HeaderReader, now: number): ResetValue | undefined {
  let best: { reset: ResetValue; exhausted: boolean } | undefined;
  for (const name of headers.names()) {
    if (name.length > MAX_NAME || COMMON.has(name) || !FAMILY_RESET.test(name)) continue;
    const value = headers.get(name);
    if (value === undefined) continue;
    const remainingName = `${name.slice(0, -"reset".length)}remaining`;
    const found = candidates(value, headers.get(remainingName));
    const reset = pick(found, now);
    if (reset === undefined) continue;
    const exhausted = found.some((candidate) => candidate.exhausted);
    const better =
      best === undefined ||
      (exhausted && !best.exhausted) ||
      (exhausted === best.exhausted && waitOf(reset, now) > waitOf(best.reset, now));
    if (better) best = { reset, exhausted };
  }
  return best?.reset;
}

/** Whether any `x-…-ratelimit-…-remaining` field of the family says its quota is spent. */
export function familyExhausted(headers: HeaderReader): boolean {
  for (const name of headers.names()) {
    if (name.length > MAX_NAME || !name.endsWith("remaining")) continue;
    if (!/^x-(?:[a-z0-9]+-){0,3}rate-?limit-(?:[a-z0-9]+-){0,3}remaining$/.test(name)) continue;
    if (saysExhausted(headers.get(name)?.trim())) return true;
  }
  return false;
}

const FAMILY_WINDOW = /^x-(?:[a-z0-9]+-){0,3}rate-?limit-interval-milliseconds$/;

/**
 * A window length paired with a spent quota (HubSpot: `X-HubSpot-RateLimit-Interval-Milliseconds`
 * with `X-HubSpot-RateLimit-Remaining: 0`): no reset is sent, and the window is the upstream's own
 * bound on the wait, as the IETF `w` is without `t`. In milliseconds.
 */
export function familyWindow(headers: HeaderReader): number | undefined {
  for (const name of headers.names()) {
    if (name.length > MAX_NAME || !FAMILY_WINDOW.test(name)) continue;
    const remaining = `${name.slice(0, -"interval-milliseconds".length)}remaining`;
    if (!saysExhausted(headers.get(remaining)?.trim())) continue;
    const text = headers.get(name)?.trim();
    if (text === undefined || !/^\d{1,12}$/.test(text)) continue;
    return Number(text);
  }
  return undefined;
}
