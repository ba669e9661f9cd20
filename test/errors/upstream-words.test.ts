// The model never reads less than it did before the tool adopted the library: the upstream's
// words are taken from every shape met in the wild, and a wait stated only in them is used when
// nothing else gives one. The SDK errors here are built as each SDK builds them (fields, name,
// message), read from their sources: exa-js `ExaError`, @mendable/firecrawl-js v2 `SdkError`
// (named `FirecrawlSdkError`), Notion's MCP server's `HttpClientError`, and the AWS SDK's Lambda
// `TooManyRequestsException`.

import { describe, expect, it } from "vitest";
import { detectThrottle, toUpstreamRateLimitedError } from "../../src/index.js";

const FIRECRAWL =
  "Rate limit exceeded. Consumed (req/min): 21, Remaining (req/min): 0. Upgrade your plan at https://firecrawl.dev/pricing for increased rate limits or please retry after 37s, resets at Tue Dec 01 2026 20:41:00 GMT+0000";

const throttle429 = (body: unknown, headers: Record<string, string> = {}) =>
  detectThrottle({ status: 429, headers, body });

describe("the upstream's words, from every shape met in the wild", () => {
  it.each([
    [
      "Brave Search's error.detail",
      {
        type: "ErrorResponse",
        error: {
          status: 429,
          code: "RATE_LIMITED",
          detail: "Request rate limit exceeded for plan.",
        },
      },
      "Request rate limit exceeded for plan.",
    ],
    [
      "error as a string (Firecrawl, Exa)",
      { success: false, error: "Too many requests" },
      "Too many requests",
    ],
    [
      "details as a string",
      { code: "RATE_LIMIT", details: "5 requests per second" },
      "5 requests per second",
    ],
    ["detail (RFC 9457)", { title: "Too Many Requests", detail: "Quota 100/min" }, "Quota 100/min"],
    [
      "a later errors[].message",
      { errors: [{ code: "x" }, { message: "Rate limited: 5 requests per second" }] },
      "Rate limited: 5 requests per second",
    ],
    [
      "Tavily's detail.error",
      { detail: { error: "Rate limit exceeded." } },
      "Rate limit exceeded.",
    ],
    ["a text/plain body", "Too many requests, 5 per second", "Too many requests, 5 per second"],
  ])("reads %s", (_, body, message) => {
    expect(throttle429(body)?.message).toBe(message);
  });
});

describe("a wait stated only in the message", () => {
  it("is used when no header or known body field gives one, as delaySource message", () => {
    expect(throttle429({ success: false, error: FIRECRAWL })).toMatchObject({
      retryAfterSeconds: 37,
      delaySource: "message",
    });
    expect(
      throttle429({
        error: {
          message: "Rate limit reached for gpt-4o. Please try again in 120ms.",
          type: "requests",
        },
      }),
    ).toMatchObject({ retryAfterMs: 120, retryAfterSeconds: 1, delaySource: "message" });
  });

  it("yields to a header or a known body field", () => {
    const body = { error: { message: "Please try again in 20 seconds." } };
    expect(throttle429(body, { "retry-after": "5" })).toMatchObject({
      retryAfterSeconds: 5,
      delaySource: "retry-after",
    });
    expect(throttle429({ ...body, retry_after: 2 })).toMatchObject({
      delaySource: "body-retry-after",
    });
  });

  it("is clamped like every delay", () => {
    const signal = detectThrottle(
      { status: 429, headers: {}, body: "Quota spent. Try again in 100 hours." },
      { maxRetryAfterSeconds: 60 },
    );
    expect(signal).toMatchObject({ retryAfterSeconds: 60, delaySource: "message" });
  });

  it("is never read from a 2xx body", () => {
    const signal = detectThrottle({
      status: 200,
      headers: {},
      body: { errors: [{ type: "RATE_LIMITED", message: "Try again in 20 seconds." }] },
    });
    expect(signal).toMatchObject({ delaySource: "none", message: "Try again in 20 seconds." });
    expect(signal?.retryAfterMs).toBeUndefined();
  });
});

class ExaError extends Error {
  statusCode: number;
  timestamp: string;
  path?: string;
  constructor(message: string, statusCode: number, timestamp?: string, path?: string) {
    super(message);
    this.name = "ExaError";
    this.statusCode = statusCode;
    this.timestamp = timestamp ?? new Date().toISOString();
    if (path !== undefined) this.path = path;
  }
}

class FirecrawlSdkError extends Error {
  status?: number | undefined;
  code?: string | undefined;
  details?: unknown;
  constructor(message: string, status?: number, code?: string, details?: unknown) {
    super(message);
    this.name = "FirecrawlSdkError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

describe("SDK errors that keep only the API's words", () => {
  it("reads exa-js' ExaError: its statusCode and its message, with the wait the message states", () => {
    const error = new ExaError(
      "Rate limit exceeded. Please retry after 37s.",
      429,
      undefined,
      "/search",
    );
    expect(toUpstreamRateLimitedError(error, { limit: "exa" })).toMatchObject({
      status: 429,
      upstreamMessage: "Rate limit exceeded. Please retry after 37s.",
      retryAfterSeconds: 37,
      delaySource: "message",
    });
    expect(toUpstreamRateLimitedError(new ExaError("Not found", 404))).toBeUndefined();
  });

  it("reads Firecrawl's SdkError: its status, its message, and the body's details", () => {
    const body = { success: false, error: FIRECRAWL };
    const error = new FirecrawlSdkError(FIRECRAWL, 429, undefined, body);
    expect(toUpstreamRateLimitedError(error, { limit: "firecrawl" })).toMatchObject({
      status: 429,
      retryAfterSeconds: 37,
      delaySource: "message",
    });
    expect(toUpstreamRateLimitedError(error)?.upstreamMessage).toContain("please retry after 37s");
    const bare = new FirecrawlSdkError("Rate limit exceeded", 429);
    expect(toUpstreamRateLimitedError(bare)?.upstreamMessage).toBe("Rate limit exceeded");
  });

  it("reads the body an error keeps as data (Notion's MCP server's HttpClientError)", () => {
    const error = Object.assign(new Error("Request failed with status code 429"), {
      name: "HttpClientError",
      status: 429,
      data: {
        object: "error",
        status: 429,
        code: "rate_limited",
        message: "You have been rate limited. Please try again in 12 seconds.",
      },
      headers: new Headers({ "content-type": "application/json" }),
    });
    expect(toUpstreamRateLimitedError(error)).toMatchObject({
      upstreamMessage: "You have been rate limited. Please try again in 12 seconds.",
      retryAfterSeconds: 12,
      delaySource: "message",
    });
  });

  it("reads the AWS SDK's retryAfterSeconds (Lambda's TooManyRequestsException)", () => {
    const error = Object.assign(new Error("Rate Exceeded."), {
      name: "TooManyRequestsException",
      $fault: "client",
      $metadata: { httpStatusCode: 429, requestId: "r-1", attempts: 1, totalRetryDelay: 0 },
      retryAfterSeconds: "12",
      Type: "User",
      Reason: "CallerRateLimitExceeded",
    });
    expect(toUpstreamRateLimitedError(error)).toMatchObject({
      status: 429,
      retryAfterSeconds: 12,
      delaySource: "sdk-retry-after",
      upstreamMessage: "Rate Exceeded.",
    });
  });

  it("lets an SDK's own wait win over one its message states", () => {
    const error = Object.assign(new Error("Please try again in 90 seconds."), {
      name: "TooManyRequestsException",
      $metadata: { httpStatusCode: 429 },
      retryAfterSeconds: 3,
    });
    expect(toUpstreamRateLimitedError(error)).toMatchObject({
      retryAfterSeconds: 3,
      delaySource: "sdk-retry-after",
    });
  });
});
