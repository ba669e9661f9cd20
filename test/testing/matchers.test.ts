import { describe, expect, expectTypeOf, it } from "vitest";
import { rateLimitedResult } from "../../src/index.js";
import {
  expectRateLimited,
  RateLimitAssertionError,
  type RateLimitedExpectation,
  secondsBetween,
} from "../../src/testing/index.js";
// The vitest entry: registers the matcher and types it on expect(...).
import "../../src/testing/vitest.js";

const throttled = rateLimitedResult({
  limit: "search",
  retryAfterSeconds: 60,
  message: "slow down",
});
const success = { content: [{ type: "text", text: "3 hits" }] };

describe("toBeRateLimited", () => {
  it("passes for a throttled result, with or without expectations", () => {
    expect(throttled).toBeRateLimited();
    expect(throttled).toBeRateLimited({ limit: "search", retryAfterSeconds: 60, message: /slow/ });
    expect(rateLimitedResult({ limit: "x" }, { placement: "meta" })).toBeRateLimited({
      placement: "meta",
      retryAfterSeconds: undefined,
    });
  });

  it("fails with a readable message", () => {
    expect(() => expect(success).toBeRateLimited()).toThrow(
      'expected the tool result to be rate limited, but it is not a rate_limited tool result: {"content":[{"type":"text","text":"3 hits"}]}',
    );
    expect(() => expect(throttled).toBeRateLimited({ limit: "semantic_search" })).toThrow(
      'expected the tool result to be rate limited like {"limit":"semantic_search"}, but its limit is "search", not "semantic_search"',
    );
    expect(() => expect(throttled).toBeRateLimited({ retryAfterSeconds: 30 })).toThrow(
      /its retry_after_seconds is 60, not 30/,
    );
  });

  it("fails when the text does not match the error object", () => {
    const tampered = { ...throttled, content: [{ type: "text", text: "Try again later" }] };
    expect(() => expect(tampered).toBeRateLimited()).toThrow(
      'its text is "Try again later", not "Rate limited by search. Retry after 60 seconds."',
    );
  });

  it("works with .not", () => {
    expect(success).not.toBeRateLimited();
    expect(throttled).not.toBeRateLimited({ limit: "other" });
    expect(() => expect(throttled).not.toBeRateLimited()).toThrow(
      'expected the tool result not to be rate limited, but it is rate limited by "search" (retry after 60 s)',
    );
  });

  it("is typed on vitest's Assertion", () => {
    expectTypeOf(expect(throttled).toBeRateLimited)
      .parameter(0)
      .toEqualTypeOf<RateLimitedExpectation | undefined>();
    const neverRun = () => {
      // @ts-expect-error -- limit is a string
      expect(throttled).toBeRateLimited({ limit: 5 });
    };
    expectTypeOf(neverRun).toBeFunction();
  });
});

describe("expectRateLimited (any test framework)", () => {
  it("returns quietly for a match and throws an AssertionError otherwise", () => {
    expectRateLimited(throttled, { limit: "search" });
    expect(() => expectRateLimited(success)).toThrow(RateLimitAssertionError);
    expect(() => expectRateLimited(success)).toThrow(
      expect.objectContaining({ name: "AssertionError", operator: "toBeRateLimited" }),
    );
    expect(() => expectRateLimited(throttled, { limit: "x" })).toThrow(
      'its limit is "search", not "x"',
    );
  });
});

// Issue 19 #5: `expect.any(Number)` typechecked but failed (a strict !==), and an epoch-based
// delay could not be asked for as "36 or 37 s".
describe("asymmetric matchers and delay ranges", () => {
  const epoch = rateLimitedResult({
    limit: "github_search",
    retryAfterSeconds: 37,
    resetsAt: new Date("2026-12-01T10:00:37Z"),
  });

  it("accepts vitest's asymmetric matchers in every field", () => {
    expect(epoch).toBeRateLimited({
      retryAfterSeconds: expect.any(Number),
      limit: expect.stringMatching(/^github_/),
      message: expect.any(String),
      resetsAt: expect.stringContaining("2026-12-01T10:00:3"),
    });
    expectRateLimited(epoch, { retryAfterSeconds: expect.any(Number) });
    expect(() => expectRateLimited(epoch, { limit: expect.stringMatching(/^search/) })).toThrow(
      /its limit is "github_search", not StringMatching/,
    );
  });

  it("takes a delay range with secondsBetween, in this matcher and in vitest's own toEqual", () => {
    expect(epoch).toBeRateLimited({ retryAfterSeconds: secondsBetween(36, 37) });
    expect(() => expectRateLimited(epoch, { retryAfterSeconds: secondsBetween(30, 36) })).toThrow(
      "its retry_after_seconds is 37, not secondsBetween(30, 36)",
    );
    expect(epoch.structuredContent?.error).toEqual(
      expect.objectContaining({ retry_after_seconds: secondsBetween(36, 38) }),
    );
    expect(epoch.structuredContent?.error).not.toEqual(
      expect.objectContaining({ retry_after_seconds: secondsBetween(1, 2) }),
    );
  });

  it("does not match a missing delay with a range", () => {
    expect(rateLimitedResult({ limit: "x" })).not.toBeRateLimited({
      retryAfterSeconds: secondsBetween(0, 100),
    });
  });

  it("rejects a range that is not one", () => {
    expect(() => secondsBetween(5, 1)).toThrow(RangeError);
    expect(() => secondsBetween(Number.NaN, 1)).toThrow(/`min`/);
  });
});
