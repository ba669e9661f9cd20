import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidLimit } from "../../src/contract/result.js";
import {
  isRateLimitedResult,
  parseRateLimitedResult,
  RATE_LIMITED_META_KEY,
  rateLimitedResult,
} from "../../src/index.js";
import { RateLimitedErrorSchema, RateLimitedStructuredContentSchema } from "../../src/zod.js";

describe("rateLimitedResult", () => {
  it("builds the design §2 result exactly", () => {
    expect(
      rateLimitedResult({
        limit: "search_rate_limit",
        retryAfterSeconds: 60,
        message: "This endpoint has been requested too many times. Try again later.",
      }),
    ).toStrictEqual({
      content: [
        { type: "text", text: "Rate limited by search_rate_limit. Retry after 60 seconds." },
      ],
      structuredContent: {
        error: {
          type: "rate_limited",
          retry_after_seconds: 60,
          limit: "search_rate_limit",
          message: "This endpoint has been requested too many times. Try again later.",
        },
      },
      isError: true,
    });
  });

  it.each([
    { seconds: 1, text: "Rate limited by search. Retry after 1 second." },
    { seconds: 0, text: "Rate limited by search. Retry after 0 seconds." },
    { seconds: 2, text: "Rate limited by search. Retry after 2 seconds." },
    { seconds: 1.2, text: "Rate limited by search. Retry after 2 seconds." },
    { seconds: undefined, text: "Rate limited by search. Wait before retrying." },
  ])("writes $seconds seconds as “$text”", ({ seconds, text }) => {
    const result = rateLimitedResult({ limit: "search", retryAfterSeconds: seconds });
    expect(result.content).toStrictEqual([{ type: "text", text }]);
  });

  it("omits retry_after_seconds when no delay is known", () => {
    const error = rateLimitedResult({ limit: "search" }).structuredContent?.error;
    expect(error).not.toHaveProperty("retry_after_seconds");
    expect(error).not.toHaveProperty("resets_at");
    expect(error?.message).toBe("The upstream service is rate limiting requests. Try again later.");
  });

  it("writes resets_at as RFC 3339 UTC when an absolute time is given", () => {
    const result = rateLimitedResult({
      limit: "core",
      retryAfterSeconds: 30,
      resetsAt: new Date("2026-11-29T12:00:30Z"),
    });
    expect(result.structuredContent?.error.resets_at).toBe("2026-11-29T12:00:30.000Z");
  });

  it("puts the error object in _meta under one namespaced key when asked", () => {
    const result = rateLimitedResult(
      { limit: "search", retryAfterSeconds: 5 },
      { placement: "meta" },
    );
    expect(result).not.toHaveProperty("structuredContent");
    expect(result._meta?.[RATE_LIMITED_META_KEY]).toStrictEqual({
      type: "rate_limited",
      retry_after_seconds: 5,
      limit: "search",
      message: "The upstream service is rate limiting requests. Try again later.",
    });
    expect(RATE_LIMITED_META_KEY).toBe("mcp-upstream-throttle/error");
    expect(result.content[0].text).toBe("Rate limited by search. Retry after 5 seconds.");
  });

  it.each([
    [{ limit: "" }, /`limit`/],
    [{ limit: "  " }, /`limit`/],
    [{ limit: "x", retryAfterSeconds: -1 }, /`retryAfterSeconds`/],
    [{ limit: "x", retryAfterSeconds: Number.NaN }, /`retryAfterSeconds`/],
    [{ limit: "x", retryAfterSeconds: Number.POSITIVE_INFINITY }, /`retryAfterSeconds`/],
    [{ limit: "x", resetsAt: new Date(Number.NaN) }, /`resetsAt`/],
  ])("rejects %o with a message naming the field", (info, message) => {
    expect(() => rateLimitedResult(info)).toThrow(message);
  });

  it("rejects an unknown placement", () => {
    // @ts-expect-error -- not a placement
    expect(() => rateLimitedResult({ limit: "x" }, { placement: "header" })).toThrow(/`placement`/);
  });

  it("produces results that pass both zod schemas", () => {
    const result = rateLimitedResult({ limit: "a", retryAfterSeconds: 3, resetsAt: new Date() });
    expect(RateLimitedStructuredContentSchema.parse(result.structuredContent)).toBeTruthy();
    expect(RateLimitedErrorSchema.safeParse(result.structuredContent?.error).success).toBe(true);
  });
});

describe("RateLimitedErrorSchema", () => {
  it.each([
    ["an unknown field", { type: "rate_limited", limit: "a", message: "m", extra: 1 }],
    ["another type", { type: "not_found", limit: "a", message: "m" }],
    ["an empty limit", { type: "rate_limited", limit: "", message: "m" }],
    [
      "a fractional delay",
      { type: "rate_limited", limit: "a", message: "m", retry_after_seconds: 1.5 },
    ],
    [
      "a negative delay",
      { type: "rate_limited", limit: "a", message: "m", retry_after_seconds: -1 },
    ],
    [
      "a resets_at that is no date",
      { type: "rate_limited", limit: "a", message: "m", resets_at: "soon" },
    ],
  ])("rejects %s", (_name, value) => {
    expect(RateLimitedErrorSchema.safeParse(value).success).toBe(false);
  });
});

describe("parseRateLimitedResult", () => {
  const error = {
    type: "rate_limited",
    retry_after_seconds: 7,
    limit: "core",
    message: "slow down",
  };

  it("finds the error in structuredContent", () => {
    const result = { content: [], structuredContent: { error }, isError: true };
    expect(parseRateLimitedResult(result)).toStrictEqual(error);
    expect(isRateLimitedResult(result)).toBe(true);
  });

  it("finds the error in _meta", () => {
    const result = { content: [], _meta: { [RATE_LIMITED_META_KEY]: error }, isError: true };
    expect(parseRateLimitedResult(result)).toStrictEqual(error);
  });

  it.each([
    ["a success", { content: [], structuredContent: { error } }],
    ["a plain tool error", { content: [{ type: "text", text: "boom" }], isError: true }],
    [
      "another error type",
      { structuredContent: { error: { ...error, type: "x" } }, isError: true },
    ],
    ["null", null],
    ["a string", "rate_limited"],
  ])("returns undefined for %s", (_name, value) => {
    expect(parseRateLimitedResult(value)).toBeUndefined();
    expect(isRateLimitedResult(value)).toBe(false);
  });
});

describe("parseRateLimitedResult without zod", () => {
  // Mostly valid fields, sometimes a wrong one, sometimes a field missing or one too many: both
  // answers come up often.
  const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
    fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: invalid, weight: 1 });
  const isoDate = fc
    .date({ noInvalidDate: true, min: new Date("0001-01-01"), max: new Date("9999-12-31") })
    .map((date) => date.toISOString());
  const candidate = fc.record(
    {
      type: mostly(fc.constant("rate_limited"), fc.oneof(fc.string(), fc.integer())),
      retry_after_seconds: mostly(
        fc.nat(),
        fc.oneof(
          fc.integer({ max: -1 }),
          fc.double(),
          fc.constant(Number.MAX_SAFE_INTEGER + 2),
          fc.string(),
        ),
      ),
      limit: mostly(fc.string({ minLength: 1 }), fc.oneof(fc.constant(""), fc.integer())),
      message: mostly(fc.string(), fc.integer()),
      resets_at: mostly(
        isoDate,
        fc.oneof(
          fc.constantFrom(
            "2026-02-30T00:00:00Z",
            "2026-01-01T00:00Z",
            "2026-01-01T24:00:00Z",
            "2025-02-29T12:00:00Z",
            "2026-01-01T00:00:00+00:00",
          ),
          fc.string(),
        ),
      ),
    },
    { requiredKeys: ["type", "limit", "message"] },
  );
  const rarely = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 9 },
    { arbitrary: fc.string(), weight: 1 },
  );
  const candidates = fc
    .tuple(candidate, rarely)
    .map(([error, extra]) => (extra === undefined ? error : { ...error, extra }));

  it("decides exactly as RateLimitedErrorSchema does, and returns the same object", () => {
    fc.assert(
      fc.property(candidates, (value) => {
        const error = value;
        const parsed = RateLimitedErrorSchema.safeParse(error);
        const read = parseRateLimitedResult({ isError: true, structuredContent: { error } });
        expect(read !== undefined).toBe(parsed.success);
        if (parsed.success) expect(read).toStrictEqual(parsed.data);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("one rule for a valid limit: not blank once trimmed (issue 17 item 9)", () => {
  const blank = [" ", "\t", "\u3000", " \n ", "\uFEFF"];
  it.each(blank)("the reader and both zod schemas reject the blank limit %j", async (limit) => {
    const { RateLimitedErrorSchema: Zod3Schema } = await import(
      "../../src/contract/schemas/zod3.js"
    );
    const value = { type: "rate_limited", limit, message: "m" };
    expect(isValidLimit(limit)).toBe(false);
    expect(parseRateLimitedResult({ isError: true, structuredContent: { error: value } })).toBe(
      undefined,
    );
    expect(RateLimitedErrorSchema.safeParse(value).success).toBe(false);
    expect(Zod3Schema.safeParse(value).success).toBe(false);
    expect(() => rateLimitedResult({ limit })).toThrow(TypeError);
  });

  it("keeps a limit that has text around its spaces", async () => {
    const { RateLimitedErrorSchema: Zod3Schema } = await import(
      "../../src/contract/schemas/zod3.js"
    );
    const value = { type: "rate_limited", limit: " core ", message: "m" };
    expect(parseRateLimitedResult({ isError: true, structuredContent: { error: value } })).toEqual(
      value,
    );
    expect(RateLimitedErrorSchema.safeParse(value).success).toBe(true);
    expect(Zod3Schema.safeParse(value).success).toBe(true);
  });
});

describe("rateLimitedResult checks `message` (issue 17 item 15)", () => {
  it.each([5, null, {}, ["x"]])("throws a TypeError naming `message` for %j", (message) => {
    expect(() => rateLimitedResult({ limit: "x", message: message as never })).toThrow(/`message`/);
  });
});
