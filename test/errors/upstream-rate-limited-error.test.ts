import { describe, expect, it } from "vitest";
import {
  isUpstreamRateLimitedError,
  parseRateLimitedResult,
  toUpstreamRateLimitedError,
  UpstreamRateLimitedError,
} from "../../src/index.js";

describe("UpstreamRateLimitedError", () => {
  const error = new UpstreamRateLimitedError({
    limit: "search",
    status: 429,
    retryAfterMs: 1500,
    delaySource: "retry-after-ms",
    upstreamMessage: "slow down",
    resetsAt: new Date("2026-11-29T12:00:02Z"),
    cause: new Error("inner"),
  });

  it("carries its fields, a name, a message and the standard cause", () => {
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("UpstreamRateLimitedError");
    expect(error.message).toBe('Upstream rate limit "search" hit (HTTP 429); retry after 2 s');
    expect(error).toMatchObject({
      limit: "search",
      status: 429,
      retryAfterMs: 1500,
      delaySource: "retry-after-ms",
    });
    expect((error.cause as Error).message).toBe("inner");
  });

  it("records a delay source outside the library's set as none, whoever built the error", () => {
    const forged = new UpstreamRateLimitedError({
      limit: "a",
      status: 429,
      delaySource: "zendesk-ratelimit-sk_live_secret" as never,
    });
    expect(forged.delaySource).toBe("none");
  });

  it("has no cause property when none was given", () => {
    expect(Object.hasOwn(new UpstreamRateLimitedError({ limit: "a", status: 429 }), "cause")).toBe(
      false,
    );
  });

  it("has no property for a field given no value, as its doc says (absent, not undefined)", () => {
    const error = new UpstreamRateLimitedError({ limit: "a", status: 429 });
    for (const field of [
      "retryAfterMs",
      "retryAfterSeconds",
      "resetsAt",
      "upstreamMessage",
      "host",
    ])
      expect(field in error, field).toBe(false);
    expect(Object.keys(error).sort()).toEqual([
      "delaySource",
      "limit",
      "limitSource",
      "name",
      "status",
    ]);
  });

  it("becomes the design §2 result", () => {
    expect(error.toToolResult()).toStrictEqual({
      content: [
        {
          type: "text",
          text: 'Rate limited by search. Retry after 2 seconds. The upstream said: "slow down"',
        },
      ],
      structuredContent: {
        error: {
          type: "rate_limited",
          retry_after_seconds: 2,
          limit: "search",
          message: "slow down",
          resets_at: "2026-11-29T12:00:02.000Z",
        },
      },
      isError: true,
    });
    expect(parseRateLimitedResult(error.toToolResult({ placement: "meta" }))?.limit).toBe("search");
  });
});

describe("the wait an UpstreamRateLimitedError is made with", () => {
  it("takes it in milliseconds and reports the whole seconds, rounded up", () => {
    const error = new UpstreamRateLimitedError({ limit: "a", status: 429, retryAfterMs: 1500 });
    expect(error.retryAfterMs).toBe(1500);
    expect(error.retryAfterSeconds).toBe(2);
    expect(error.message).toBe('Upstream rate limit "a" hit (HTTP 429); retry after 2 s');
    expect(parseRateLimitedResult(error.toToolResult())?.retry_after_seconds).toBe(2);
  });
});

describe("isUpstreamRateLimitedError", () => {
  it("is true for an instance", () => {
    expect(
      isUpstreamRateLimitedError(new UpstreamRateLimitedError({ limit: "a", status: 429 })),
    ).toBe(true);
  });

  it("is true for an error from another copy of the package (brand, no shared class)", () => {
    class OtherCopy extends Error {
      override name = "UpstreamRateLimitedError";
      limit = "a";
      toToolResult() {}
    }
    const branded = Object.defineProperty(
      new Error("x"),
      Symbol.for("mcp-upstream-throttle.UpstreamRateLimitedError"),
      {
        value: true,
      },
    );
    expect(isUpstreamRateLimitedError(new OtherCopy())).toBe(true);
    expect(isUpstreamRateLimitedError(branded)).toBe(true);
  });

  it.each([
    ["a plain error", new Error("rate limited")],
    [
      "an error named alike without its fields",
      Object.assign(new Error("x"), { name: "UpstreamRateLimitedError" }),
    ],
    ["null", null],
    ["a string", "UpstreamRateLimitedError"],
  ])("is false for %s", (_name, value) => {
    expect(isUpstreamRateLimitedError(value)).toBe(false);
  });
});

describe("toUpstreamRateLimitedError", () => {
  it.each([
    [
      "status and plain headers on the error (undici ResponseError)",
      { status: 429, headers: { "retry-after": "3" } },
    ],
    ["statusCode (node:http style)", { statusCode: 429, headers: { "retry-after": "3" } }],
    [
      "response.status and a Headers object (ky, fetch)",
      { response: { status: 429, headers: new Headers({ "Retry-After": "3" }) } },
    ],
    [
      "response.status and response.headers (axios, Octokit)",
      { response: { status: 429, headers: { "retry-after": "3" } } },
    ],
    [
      "response.statusCode (got)",
      { response: { statusCode: 429, headers: { "retry-after": "3" } } },
    ],
  ])("recognises %s", (_name, thrown) => {
    const error = toUpstreamRateLimitedError(Object.assign(new Error("HTTP error"), thrown));
    expect(error?.retryAfterSeconds).toBe(3);
    expect(error?.cause).toBeInstanceOf(Error);
  });

  it("names the limit: the option, then the upstream's name, then the host", () => {
    const thrown = {
      status: 429,
      headers: { "retry-after": "1" },
      config: { url: "https://api.example.com/search?key=secret" },
    };
    expect(toUpstreamRateLimitedError(thrown, { limit: "mine" })?.limit).toBe("mine");
    expect(
      toUpstreamRateLimitedError({ ...thrown, headers: { "x-ratelimit-resource": "search" } })
        ?.limit,
    ).toBe("search");
    expect(toUpstreamRateLimitedError(thrown)).toMatchObject({
      limit: "api.example.com",
      limitSource: "host",
    });
    expect(toUpstreamRateLimitedError({ status: 429, headers: {} })?.limit).toBe("upstream");
  });

  it("reads the message from the body the SDK kept", () => {
    const thrown = {
      response: { status: 429, headers: {}, data: { message: "Too many requests" } },
    };
    expect(toUpstreamRateLimitedError(thrown)?.upstreamMessage).toBe("Too many requests");
  });

  it("uses the configured default only when the upstream gave no delay", () => {
    const error = toUpstreamRateLimitedError(
      { status: 429, headers: {} },
      { defaultRetryAfterSeconds: 30 },
    );
    expect(error).toMatchObject({ retryAfterSeconds: 30, delaySource: "default" });
    const given = toUpstreamRateLimitedError(
      { status: 429, headers: { "retry-after": "5" } },
      { defaultRetryAfterSeconds: 30 },
    );
    expect(given).toMatchObject({ retryAfterSeconds: 5, delaySource: "retry-after" });
  });

  it("returns an UpstreamRateLimitedError as is", () => {
    const error = new UpstreamRateLimitedError({ limit: "a", status: 429 });
    expect(toUpstreamRateLimitedError(error)).toBe(error);
  });

  it.each([
    ["a 404", { status: 404, headers: {} }],
    ["an error without a status", new Error("ECONNRESET")],
    ["undefined", undefined],
    ["a number", 429],
    [
      "a throwing getter",
      Object.defineProperty({}, "status", {
        get: () => {
          throw new Error("boom");
        },
      }),
    ],
  ])("returns undefined for %s", (_name, value) => {
    expect(toUpstreamRateLimitedError(value)).toBeUndefined();
  });

  it("rejects bad options, naming them", () => {
    expect(() => toUpstreamRateLimitedError({}, { limit: "" })).toThrow(/`limit`/);
    expect(() => toUpstreamRateLimitedError({}, { defaultRetryAfterSeconds: -1 })).toThrow(
      /`defaultRetryAfterSeconds`/,
    );
  });
});

describe("a detected throttle's stack (issue 23 item 3)", () => {
  it("names the error and says what happened, without this library's frames", async () => {
    const { toUpstreamRateLimitedError } = await import("../../src/index.js");
    const before = Error.stackTraceLimit;
    const error = toUpstreamRateLimitedError({ status: 429, headers: { "retry-after": "5" } });
    expect(Error.stackTraceLimit).toBe(before);
    expect(error?.stack?.split("\n")[0]).toBe(
      'UpstreamRateLimitedError: Upstream rate limit "upstream" hit (HTTP 429); retry after 5 s',
    );
  });
  it("is still made where the limit cannot be turned (frozen intrinsics)", async () => {
    const { toUpstreamRateLimitedError } = await import("../../src/index.js");
    const own = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
    Object.defineProperty(Error, "stackTraceLimit", {
      value: 7,
      writable: false,
      configurable: true,
    });
    try {
      const error = toUpstreamRateLimitedError({ status: 429, headers: { "retry-after": "5" } });
      expect(error?.retryAfterSeconds).toBe(5);
      expect(Error.stackTraceLimit).toBe(7);
    } finally {
      if (own !== undefined) Object.defineProperty(Error, "stackTraceLimit", own);
    }
  });
});
