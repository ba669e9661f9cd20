import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectThrottle, parseRetryAfter, rateLimitedResult } from "../../src/index.js";
import { RateLimitedErrorSchema, RateLimitedStructuredContentSchema } from "../../src/zod.js";

const KNOWN_HEADERS = [
  "retry-after",
  "retry-after-ms",
  "x-ms-retry-after-ms",
  "ratelimit",
  "ratelimit-policy",
  "ratelimit-reset",
  "ratelimit-remaining",
  "ratelimit-name",
  "x-ratelimit-reset",
  "x-rate-limit-reset",
  "x-ratelimit-remaining",
  "x-ratelimit-resource",
  "x-ratelimit-reset-after",
  "x-ratelimit-reset-requests",
  "x-ratelimit-remaining-requests",
  "anthropic-ratelimit-tokens-reset",
  "anthropic-ratelimit-tokens-remaining",
  "date",
];

/** Values shaped like the real ones, and plain garbage. */
const headerValue = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.double().map(String),
  fc.nat().map((n) => `${n}ms`),
  fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom(
    '"a";r=0;t=30',
    "limit=1, remaining=0, reset=9",
    '"x";r=0;t=-1',
    "6m0s",
    "1e308",
    "9".repeat(400),
  ),
);

const headers = fc.dictionary(
  fc.oneof(fc.constantFrom(...KNOWN_HEADERS), fc.string()),
  fc.oneof(headerValue, fc.array(headerValue)),
  {
    maxKeys: 8,
  },
);

const body = fc.oneof(
  fc.anything(),
  fc.json(),
  fc.record({ retry_after: fc.oneof(fc.double(), fc.string()) }),
  fc.record({
    error: fc.record({
      code: fc.constantFrom(-32023, -32029, 5),
      data: fc.record({ retryAfterMs: fc.double(), retryAfterSeconds: fc.double() }),
    }),
  }),
  fc.record({
    error: fc.record({
      details: fc.array(
        fc.record({ "@type": fc.constant("google.rpc.RetryInfo"), retryDelay: fc.string() }),
      ),
    }),
  }),
);

const status = fc.oneof(
  fc.constantFrom(403, 429, 503, 400),
  fc.integer({ min: -1, max: 1000 }),
  fc.double(),
);

describe("property: the parsers never throw and return a sane delay or nothing", () => {
  it("detectThrottle on arbitrary headers and bodies", () => {
    fc.assert(
      fc.property(
        status,
        headers,
        body,
        fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constant(1e13)),
        fc.date({ noInvalidDate: true }),
        (code, fields, payload, max, now) => {
          const signal = detectThrottle(
            { status: code, headers: fields, body: payload },
            { now, maxRetryAfterSeconds: max, treat503AsThrottle: true },
          );
          if (signal?.retryAfterSeconds !== undefined) {
            expect(Number.isInteger(signal.retryAfterSeconds)).toBe(true);
            expect(signal.retryAfterSeconds).toBeGreaterThanOrEqual(0);
            expect(signal.retryAfterSeconds).toBeLessThanOrEqual(max);
            expect(Number.isInteger(signal.retryAfterMs)).toBe(true);
            expect(signal.retryAfterMs).toBeLessThanOrEqual(max * 1000);
          }
          if (signal?.resetsAt !== undefined)
            expect(Number.isNaN(signal.resetsAt.getTime())).toBe(false);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("parseRetryAfter on arbitrary strings", () => {
    fc.assert(
      fc.property(headerValue, fc.date({ noInvalidDate: true }), (value, now) => {
        const ms = parseRetryAfter(value, now);
        if (ms !== undefined) {
          expect(Number.isFinite(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("property: every rateLimitedResult passes the schemas", () => {
  it("for any valid limit, delay, message and reset time", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((limit) => limit.trim() !== ""),
        fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        fc.option(
          fc.date({ noInvalidDate: true, min: new Date(0), max: new Date("9999-12-31T23:59:59Z") }),
          { nil: undefined },
        ),
        (limit, retryAfterSeconds, message, resetsAt) => {
          const result = rateLimitedResult({ limit, retryAfterSeconds, message, resetsAt });
          expect(
            RateLimitedStructuredContentSchema.safeParse(result.structuredContent).success,
          ).toBe(true);
          expect(RateLimitedErrorSchema.safeParse(result.structuredContent?.error).success).toBe(
            true,
          );
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
