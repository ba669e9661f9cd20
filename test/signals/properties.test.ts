import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detectThrottle,
  parseRetryAfter,
  rateLimitedResult,
  toUpstreamRateLimitedError,
} from "../../src/index.js";
import type { DetectSettings } from "../../src/signals/detect.js";
import { quotaSpent } from "../../src/signals/quota-spent.js";
import { SecretMatcher } from "../../src/untrusted/secrets.js";
import { RateLimitedErrorSchema, RateLimitedStructuredContentSchema } from "../../src/zod.js";

const SETTINGS: DetectSettings = {
  maxMs: 86_400_000,
  treat503AsThrottle: false,
  upstreamText: "sanitized",
  secrets: SecretMatcher.EMPTY,
};

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
  "x-ratelimit-requests-reset",
  "x-ratelimit-requests-remaining",
  "x-sentry-rate-limit-reset",
  "x-sentry-rate-limit-remaining",
  "x-hubspot-ratelimit-interval-milliseconds",
  "x-hubspot-ratelimit-remaining",
  "x-amzn-errortype",
  "ratelimit-reason",
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
    "0, 9000",
    "1, 1419704",
    "0.0",
    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
    "2026-11-29T12:00Z",
    "ThrottlingException:http://x",
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

const graphqlCode = fc.constantFrom("RATE_LIMITED", "RATELIMITED", "THROTTLED", "OTHER");
const number = fc.oneof(fc.double(), fc.integer(), fc.constant(Number.MAX_VALUE), fc.string());
const bodies = fc.oneof(
  body,
  fc.record({
    errors: fc.array(
      fc.oneof(
        fc.record({ type: graphqlCode, message: fc.string() }),
        fc.record({ extensions: fc.record({ code: graphqlCode }) }),
        fc.anything(),
      ),
      { maxLength: 40 },
    ),
    extensions: fc.record({
      cost: fc.record({
        requestedQueryCost: number,
        throttleStatus: fc.record({ currentlyAvailable: number, restoreRate: number }),
      }),
    }),
  }),
  fc.record({
    error: fc.record({
      errors: fc.array(
        fc.record({ reason: fc.constantFrom("quotaExceeded", "rateLimitExceeded", "x") }),
      ),
      status: fc.constantFrom("RESOURCE_EXHAUSTED", "OK"),
    }),
  }),
  fc.array(
    fc.record({ errorCode: fc.constantFrom("REQUEST_LIMIT_EXCEEDED", "X"), message: fc.string() }),
  ),
  fc.record({
    status: fc.constantFrom("OVER_QUERY_LIMIT", "OK"),
    __type: fc.string(),
    policyName: fc.string(),
  }),
);

const status = fc.oneof(
  fc.constantFrom(403, 429, 503, 400, 200, 204),
  fc.integer({ min: -1, max: 1000 }),
  fc.double(),
);

describe("property: the parsers never throw and return a sane delay or nothing", () => {
  it("detectThrottle on arbitrary headers and bodies", () => {
    fc.assert(
      fc.property(
        status,
        headers,
        bodies,
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

describe("property: pre-emption and SDK errors never throw and give a sane delay or nothing", () => {
  it("quotaSpent on arbitrary headers", () => {
    fc.assert(
      fc.property(headers, fc.date({ noInvalidDate: true }), (fields, now) => {
        const signal = quotaSpent({ status: 200, headers: fields }, () => SETTINGS, now.getTime());
        if (signal !== undefined) {
          expect(Number.isInteger(signal.retryAfterMs)).toBe(true);
          expect(signal.retryAfterMs).toBeGreaterThan(0);
          expect(signal.retryAfterMs).toBeLessThanOrEqual(SETTINGS.maxMs);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("toUpstreamRateLimitedError on SDK-shaped errors with arbitrary fields", () => {
    const sdkError = fc.record(
      {
        code: fc.constantFrom(
          "slack_webapi_rate_limited_error",
          "slack_webapi_platform_error",
          429,
        ),
        retryAfter: number,
        timeToReset: number,
        name: fc.constantFrom("ThrottlingException", "RateLimitError[/x]", "Error"),
        $metadata: fc.record({ httpStatusCode: number }),
        $retryable: fc.record({ throttling: fc.boolean() }),
        $response: fc.record({ headers }),
        type: fc.constantFrom("Ratelimited", "Unknown"),
        raw: fc.record({ response: fc.record({ headers, errors: fc.anything() }) }),
        data: fc.anything(),
        url: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(sdkError, (error) => {
        const recognised = toUpstreamRateLimitedError(error, { maxRetryAfterSeconds: 3600 });
        if (recognised?.retryAfterSeconds !== undefined) {
          expect(Number.isInteger(recognised.retryAfterSeconds)).toBe(true);
          expect(recognised.retryAfterSeconds).toBeGreaterThanOrEqual(0);
          expect(recognised.retryAfterSeconds).toBeLessThanOrEqual(3600);
        }
        if (recognised !== undefined) {
          expect(recognised.status).toBeGreaterThanOrEqual(400);
          expect(recognised.status).toBeLessThan(600);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
