// What the matcher and expectRateLimited check, in one place.

import {
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  type RateLimitedError,
  rateLimitedText,
} from "../result.js";

/** What a test may ask of a throttled result; every field is optional. */
export interface RateLimitedExpectation {
  /** The exact limit name. */
  limit?: string;
  /** Exact seconds, or `undefined` to require that none is given. */
  retryAfterSeconds?: number | undefined;
  /** The exact `message`, or a pattern it must match. */
  message?: string | RegExp;
  /** The reset time, as a `Date` or the RFC 3339 string the result carries. */
  resetsAt?: Date | string;
  /** Where the error object must be. */
  placement?: "structuredContent" | "meta";
}

export interface Verdict {
  pass: boolean;
  /** Why it passed or failed, in one sentence, for either direction of the assertion. */
  reason: string;
  error?: RateLimitedError;
}

/** Checks a tool result against the `rate_limited` result contract and the expectation. */
export function judge(result: unknown, expected: RateLimitedExpectation = {}): Verdict {
  const error = parseRateLimitedResult(result);
  if (error === undefined)
    return { pass: false, reason: `it is not a rate_limited tool result: ${describe(result)}` };
  const text = (result as { content?: { type?: string; text?: unknown }[] }).content?.[0];
  const expectedText = rateLimitedText(error.limit, error.retry_after_seconds);
  if (text?.type !== "text" || text.text !== expectedText) {
    return {
      pass: false,
      error,
      reason: `its text is ${JSON.stringify(text?.text)}, not ${JSON.stringify(expectedText)}`,
    };
  }
  const mismatch = mismatchOf(result, error, expected);
  if (mismatch !== undefined) return { pass: false, error, reason: mismatch };
  const wait =
    error.retry_after_seconds === undefined
      ? "no delay"
      : `retry after ${error.retry_after_seconds} s`;
  return { pass: true, error, reason: `it is rate limited by "${error.limit}" (${wait})` };
}

function mismatchOf(
  result: unknown,
  error: RateLimitedError,
  expected: RateLimitedExpectation,
): string | undefined {
  if (expected.limit !== undefined && error.limit !== expected.limit) {
    return `its limit is "${error.limit}", not "${expected.limit}"`;
  }
  if ("retryAfterSeconds" in expected && error.retry_after_seconds !== expected.retryAfterSeconds) {
    return `its retry_after_seconds is ${String(error.retry_after_seconds)}, not ${String(expected.retryAfterSeconds)}`;
  }
  const message = expected.message;
  if (
    message !== undefined &&
    !(typeof message === "string" ? error.message === message : message.test(error.message))
  ) {
    return `its message is ${JSON.stringify(error.message)}, not ${String(message)}`;
  }
  if (expected.resetsAt !== undefined) {
    const want = new Date(expected.resetsAt).toISOString();
    if (error.resets_at !== want) return `its resets_at is ${String(error.resets_at)}, not ${want}`;
  }
  if (expected.placement !== undefined) {
    const inMeta =
      (result as { _meta?: Record<string, unknown> })._meta?.[RATE_LIMITED_META_KEY] !== undefined;
    const placement = inMeta ? "meta" : "structuredContent";
    if (placement !== expected.placement)
      return `its error object is in ${placement}, not ${expected.placement}`;
  }
  return undefined;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
