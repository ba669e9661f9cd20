// What a response's status and headers say before its body is read: a throttle, not one, or
// "it depends on the body"; and what the body must then say.

import { AWS_THROTTLING_CODES, awsErrorName, bodyStatesThrottle } from "./body-throttles.js";
import type { Echo } from "./echo.js";
import {
  AMZN_ERROR_TYPE,
  type Field,
  RATELIMIT_REMAINING,
  RETRY_AFTER,
  X_RATE_LIMIT_REMAINING,
  X_RATELIMIT_REMAINING,
  X_RATELIMIT_RESET,
} from "./fields.js";
import type { HeaderReader } from "./headers.js";
import { saysExhausted } from "./quota-families.js";

// GitHub answers a secondary limit with 403 and one of these sentences (REST API docs,
// "Rate limits for the REST API").
const RATE_LIMIT_MESSAGE = /secondary rate limit|rate limit exceeded|abuse detection/gi;

/** Whether a status could be a throttle at all: the cheap check before any header is read. */
export function mayBeThrottle(status: number): boolean {
  return status >= 400 && status < 600;
}

/**
 * What status and headers alone say: a throttle, not one, or "it depends on the body" (an
 * upstream MCP server's JSON-RPC code, GitHub's secondary-limit sentence).
 */
export function throttleVerdict(
  status: number,
  headers: HeaderReader,
  treat503AsThrottle: boolean,
): "yes" | "no" | "body" {
  if (status === 429) return "yes";
  if (status === 503) return treat503AsThrottle && holds(headers, RETRY_AFTER) ? "yes" : "no";
  if (status < 400 || status >= 500) return "no";
  const exhausted = isExhausted(headers);
  if (status === 403) {
    // GitHub: primary limit (remaining 0 with a reset), secondary limit (Retry-After).
    if (exhausted && holds(headers, X_RATELIMIT_RESET)) return "yes";
    if (holds(headers, RETRY_AFTER)) return "yes";
    return "body";
  }
  // Any other 4xx is its own answer (a 404 is a 404) unless the upstream also says when to retry.
  return exhausted && holds(headers, RETRY_AFTER) ? "yes" : "body";
}

/** A known field's value, when the response may hold it. */
export function read(headers: HeaderReader, field: Field): string | undefined {
  return (headers.fields & field.bit) === 0 ? undefined : headers.get(field.name);
}

function holds(headers: HeaderReader, field: Field): boolean {
  return (headers.fields & field.bit) !== 0 && headers.has(field.name);
}

const REMAINING_HEADERS = [X_RATELIMIT_REMAINING, X_RATE_LIMIT_REMAINING, RATELIMIT_REMAINING];

/** A remaining-quota header at 0 (`0.0`, or a 0 among per-policy values). */
export function isExhausted(headers: HeaderReader): boolean {
  for (const field of REMAINING_HEADERS) {
    if (saysExhausted(read(headers, field)?.trim())) return true;
  }
  return false;
}

/**
 * Whether a body (with the AWS error-type header) states a throttle a 4xx left open. GitHub's
 * sentence counts only in the upstream's own words: one that only echoes the request (`echo`,
 * a repository named "rate limit exceeded") never makes a 403 a throttle.
 */
export function bodySaysThrottle(
  status: number,
  headers: HeaderReader,
  body: unknown,
  message: string | undefined,
  echo?: Echo,
): boolean {
  if (bodyStatesThrottle(body)) return true;
  if (AWS_THROTTLING_CODES.has(awsErrorName(read(headers, AMZN_ERROR_TYPE)))) return true;
  if (status !== 403 || message === undefined) return false;
  RATE_LIMIT_MESSAGE.lastIndex = 0;
  for (const match of message.matchAll(RATE_LIMIT_MESSAGE)) {
    if (echo === undefined || !echo.covers(match.index, match.index + match[0].length)) return true;
  }
  return false;
}
