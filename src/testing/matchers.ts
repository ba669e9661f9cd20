import { AssertionError } from "node:assert";
// Types only, for the augmentation below; vitest is never loaded at run time.
import type {} from "vitest";
import { judge, type RateLimitedExpectation } from "./expectation.js";

/** What vitest (and jest) hand a matcher as `this`; only `isNot` is read. */
interface MatcherContext {
  isNot?: boolean;
}

/**
 * The vitest matcher: register it with `expect.extend({ toBeRateLimited })`, then
 * `expect(result).toBeRateLimited({ limit: "search", retryAfterSeconds: 60 })`. Works with `.not`.
 */
export function toBeRateLimited(
  this: MatcherContext | undefined,
  received: unknown,
  expected?: RateLimitedExpectation,
) {
  const verdict = judge(received, expected);
  return {
    pass: verdict.pass,
    message: () =>
      this?.isNot
        ? `expected the tool result not to be rate limited${expected ? ` like ${JSON.stringify(expected)}` : ""}, but ${verdict.reason}`
        : `expected the tool result to be rate limited${expected ? ` like ${JSON.stringify(expected)}` : ""}, but ${verdict.reason}`,
    actual: verdict.error ?? received,
    expected,
  };
}

/** For any test framework: throws an `AssertionError` unless `result` is rate limited as expected. */
export function expectRateLimited(result: unknown, expected?: RateLimitedExpectation): void {
  const verdict = judge(result, expected);
  if (!verdict.pass) {
    throw new AssertionError({
      message: `expected the tool result to be rate limited, but ${verdict.reason}`,
      actual: verdict.error ?? result,
      expected,
      operator: "toBeRateLimited",
    });
  }
}

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: must match vitest's own declaration
  interface Matchers<T = any> {
    /** The tool result is a design §2 `rate_limited` result matching `expected`. */
    toBeRateLimited(expected?: RateLimitedExpectation): T;
  }
}
