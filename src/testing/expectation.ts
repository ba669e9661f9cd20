// What the matcher and expectRateLimited check, in one place.

import {
  leadingSentence,
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  type RateLimitedError,
  rateLimitedText,
} from "../contract/result.js";

/**
 * An asymmetric matcher of any test framework (vitest's and jest's `expect.any(Number)`,
 * `expect.stringContaining(…)`), or `secondsBetween(…)`: anything with `asymmetricMatch`.
 */
export interface AsymmetricMatcherLike {
  /** Whether `other` (the value found in the result) matches. */
  asymmetricMatch(other: unknown): boolean;
}

/** What a test may ask of a throttled result; every field is optional. */
export interface RateLimitedExpectation {
  /** The exact limit name, or an asymmetric matcher. */
  limit?: string | AsymmetricMatcherLike;
  /**
   * Exact seconds, `undefined` to require that none is given, or a matcher:
   * `secondsBetween(36, 37)` for a delay computed from an epoch reset, `expect.any(Number)`.
   */
  retryAfterSeconds?: number | undefined | AsymmetricMatcherLike;
  /** The exact `message`, a pattern it must match, or a matcher. */
  message?: string | RegExp | AsymmetricMatcherLike;
  /** The reset time, as a `Date` or the RFC 3339 string the result carries, or a matcher. */
  resetsAt?: Date | string | AsymmetricMatcherLike;
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
  // The sentence at the start; after it, only the upstream's words as the library quotes them.
  const sentence =
    text?.type === "text" && typeof text.text === "string" ? leadingSentence(text.text) : undefined;
  if (sentence !== expectedText) {
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
  if (expected.limit !== undefined && !matches(error.limit, expected.limit)) {
    return `its limit is "${error.limit}", not ${shown(expected.limit)}`;
  }
  if (
    "retryAfterSeconds" in expected &&
    !matches(error.retry_after_seconds, expected.retryAfterSeconds)
  ) {
    return `its retry_after_seconds is ${String(error.retry_after_seconds)}, not ${shown(expected.retryAfterSeconds)}`;
  }
  const message = expected.message;
  if (
    message !== undefined &&
    !(message instanceof RegExp ? message.test(error.message) : matches(error.message, message))
  ) {
    return `its message is ${JSON.stringify(error.message)}, not ${shown(message)}`;
  }
  if (expected.resetsAt !== undefined) {
    const want = isMatcher(expected.resetsAt)
      ? expected.resetsAt
      : new Date(expected.resetsAt).toISOString();
    if (!matches(error.resets_at, want)) {
      return `its resets_at is ${String(error.resets_at)}, not ${shown(want)}`;
    }
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

/**
 * A matcher for a delay known only to a second or so: `retry_after_seconds` computed from an
 * epoch reset depends on when the upstream answered, so "36 or 37 s" is `secondsBetween(36, 37)`.
 * Works as `retryAfterSeconds` here and inside vitest's and jest's own `toEqual`.
 *
 * @example
 * ```ts
 * import { expectRateLimited, secondsBetween } from "mcp-upstream-throttle/testing";
 *
 * declare const result: unknown; // what the tool returned for an epoch-reset throttle
 * expectRateLimited(result, { limit: "github_core", retryAfterSeconds: secondsBetween(36, 37) });
 * ```
 */
export function secondsBetween(min: number, max: number): AsymmetricMatcherLike {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) {
    throw new RangeError("`min` and `max` must be finite numbers with `min` <= `max`");
  }
  return {
    $$typeof: Symbol.for("jest.asymmetricMatcher"),
    asymmetricMatch: (other: unknown) => typeof other === "number" && other >= min && other <= max,
    toString: () => `secondsBetween(${min}, ${max})`,
    toAsymmetricMatcher: () => `secondsBetween(${min}, ${max})`,
  } as AsymmetricMatcherLike;
}

function isMatcher(value: unknown): value is AsymmetricMatcherLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<AsymmetricMatcherLike>).asymmetricMatch === "function"
  );
}

function matches(actual: unknown, expected: unknown): boolean {
  return isMatcher(expected) ? expected.asymmetricMatch(actual) === true : actual === expected;
}

function shown(expected: unknown): string {
  if (isMatcher(expected)) {
    const text = (expected as { toAsymmetricMatcher?: () => string }).toAsymmetricMatcher?.();
    return typeof text === "string" ? text : String(expected);
  }
  return typeof expected === "string" ? `"${expected}"` : String(expected);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
