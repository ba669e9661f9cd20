import { judge, type RateLimitedExpectation } from "./expectation.js";

/** What vitest (and jest) hand a matcher as `this`; only `isNot` is read. */
export interface MatcherContext {
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

/**
 * The failure `expectRateLimited` throws. Named `AssertionError` and shaped like Node's
 * (`actual`, `expected`, `operator`), so test runners show it as a failed assertion, without
 * `node:assert`, which Workers and browsers lack.
 */
export class RateLimitAssertionError extends Error {
  override readonly name = "AssertionError";
  readonly code = "ERR_ASSERTION";
  readonly actual: unknown;
  readonly expected: unknown;
  readonly operator = "toBeRateLimited";
  readonly generatedMessage = false;

  constructor(message: string, actual: unknown, expected: unknown) {
    super(message);
    this.actual = actual;
    this.expected = expected;
  }
}

/**
 * For any test framework: throws a `RateLimitAssertionError` unless `result` is rate limited
 * as expected.
 */
export function expectRateLimited(result: unknown, expected?: RateLimitedExpectation): void {
  const verdict = judge(result, expected);
  if (!verdict.pass) {
    throw new RateLimitAssertionError(
      `expected the tool result to be rate limited, but ${verdict.reason}`,
      verdict.error ?? result,
      expected,
    );
  }
}
