import { describe, expect, it } from "vitest";
import { detectThrottle, type ThrottleResponse } from "../../src/index.js";

const now = new Date("2026-11-29T12:00:00Z");
const epoch = (iso: string) => String(Date.parse(iso) / 1000);

interface Row {
  source: string;
  response: ThrottleResponse;
  expected: Record<string, unknown>;
}

const throttles: Row[] = [
  {
    source: "RFC 6585 429 with RFC 9110 Retry-After seconds",
    response: { status: 429, headers: { "retry-after": "60" } },
    expected: { retryAfterMs: 60_000, retryAfterSeconds: 60, delaySource: "retry-after" },
  },
  {
    source: "429 with an HTTP-date Retry-After: resets_at is that date",
    response: { status: 429, headers: { "Retry-After": "Sun, 29 Nov 2026 12:00:42 GMT" } },
    expected: {
      retryAfterSeconds: 42,
      delaySource: "retry-after",
      resetsAt: new Date("2026-11-29T12:00:42Z"),
    },
  },
  {
    source: "429 with nothing to go by",
    response: { status: 429, headers: {} },
    expected: { delaySource: "none", retryAfterMs: undefined, retryAfterSeconds: undefined },
  },
  {
    source: "GitHub primary limit: 403, x-ratelimit-remaining 0, epoch reset (REST API docs)",
    response: {
      status: 403,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": "5000",
        "x-ratelimit-reset": epoch("2026-11-29T12:10:00Z"),
        "x-ratelimit-resource": "core",
      },
      body: {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url: "https://docs.github.com/rest",
      },
    },
    expected: {
      status: 403,
      retryAfterSeconds: 600,
      delaySource: "x-ratelimit-reset",
      resetsAt: new Date("2026-11-29T12:10:00Z"),
      limitName: "core",
      message: "API rate limit exceeded for user ID 1.",
    },
  },
  {
    source: "GitHub secondary limit: 403 with Retry-After (REST API docs)",
    response: {
      status: 403,
      headers: { "retry-after": "60", "x-ratelimit-remaining": "4990" },
      body: {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
    },
    expected: { retryAfterSeconds: 60, delaySource: "retry-after" },
  },
  {
    source: "GitHub secondary limit: 403 with only its message",
    response: {
      status: 403,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message: "You have exceeded a secondary rate limit and have been temporarily blocked.",
      }),
    },
    expected: {
      delaySource: "none",
      message: "You have exceeded a secondary rate limit and have been temporarily blocked.",
    },
  },
  {
    source: "OpenAI: retry-after-ms beats Retry-After",
    response: { status: 429, headers: { "retry-after-ms": "1500", "retry-after": "20" } },
    expected: { retryAfterMs: 1500, retryAfterSeconds: 2, delaySource: "retry-after-ms" },
  },
  {
    source: "Azure: x-ms-retry-after-ms beats Retry-After",
    response: { status: 429, headers: { "x-ms-retry-after-ms": "250", "retry-after": "1" } },
    expected: { retryAfterMs: 250, retryAfterSeconds: 1, delaySource: "x-ms-retry-after-ms" },
  },
  {
    source: "SEP-3304: error.data.retryAfterMs wins over Retry-After (RL-9)",
    response: {
      status: 429,
      headers: { "retry-after": "10" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32023, message: "Rate limited", data: { retryAfterMs: 2500 } },
      },
    },
    expected: {
      retryAfterMs: 2500,
      retryAfterSeconds: 3,
      delaySource: "json-rpc-retry-after-ms",
      message: "Rate limited",
    },
  },
  {
    source: "SEP-3304 body sent as text: parsed here",
    response: {
      status: 429,
      headers: {},
      body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32023,"message":"slow","data":{"retryAfterMs":900}}}',
    },
    expected: { retryAfterMs: 900, retryAfterSeconds: 1, delaySource: "json-rpc-retry-after-ms" },
  },
  {
    source: "an upstream MCP server's -32029 on HTTP 400",
    response: {
      status: 400,
      headers: { "retry-after": "5" },
      body: { jsonrpc: "2.0", id: 1, error: { code: -32029, message: "Too many requests" } },
    },
    expected: { retryAfterSeconds: 5, message: "Too many requests" },
  },
  {
    source: "Retry-After beats X-RateLimit-Reset",
    response: {
      status: 429,
      headers: { "retry-after": "5", "x-ratelimit-reset": epoch("2026-11-29T13:00:00Z") },
    },
    expected: { retryAfterSeconds: 5, delaySource: "retry-after", resetsAt: undefined },
  },
  {
    source: "garbage Retry-After falls through to X-RateLimit-Reset",
    response: {
      status: 429,
      headers: { "retry-after": "3 apples", "x-ratelimit-reset": epoch("2026-11-29T12:00:30Z") },
    },
    expected: { retryAfterSeconds: 30, delaySource: "x-ratelimit-reset" },
  },
  {
    source: "a reset in the past means no wait",
    response: { status: 429, headers: { "x-ratelimit-reset": epoch("2026-11-29T11:00:00Z") } },
    expected: { retryAfterSeconds: 0, delaySource: "x-ratelimit-reset" },
  },
  {
    source: "a limit named by RateLimit-Name",
    response: { status: 429, headers: { "ratelimit-name": "search", "retry-after": "1" } },
    expected: { limitName: "search", retryAfterSeconds: 1 },
  },
  {
    source: "repeated header lines (node:http arrays) are joined, and a garbage join is ignored",
    response: { status: 429, headers: { "retry-after": ["5", "7"] } },
    expected: { delaySource: "none" },
  },
  {
    source: "a Headers object",
    response: { status: 429, headers: new Headers({ "Retry-After": "9" }) },
    expected: { retryAfterSeconds: 9 },
  },
  {
    source: "a Map of headers",
    response: { status: 429, headers: new Map([["Retry-After", "8"]]) },
    expected: { retryAfterSeconds: 8 },
  },
  {
    source: "an opted-in 503 with Retry-After",
    response: { status: 503, headers: { "retry-after": "120" } },
    expected: { retryAfterSeconds: 120 },
  },
];

describe("detectThrottle: throttles", () => {
  it.each(throttles)("$source", ({ response, expected }) => {
    const signal = detectThrottle(response, { now, treat503AsThrottle: true });
    expect(signal).toBeDefined();
    for (const [key, value] of Object.entries(expected)) {
      expect(signal?.[key as keyof typeof signal], key).toStrictEqual(value);
    }
  });
});

const notThrottles: { source: string; response: ThrottleResponse }[] = [
  { source: "200", response: { status: 200, headers: { "retry-after": "5" } } },
  { source: "a 404 is a 404", response: { status: 404, headers: {} } },
  {
    source: "the last permitted request: a 404 with x-ratelimit-remaining 0",
    response: {
      status: 404,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1800000000" },
    },
  },
  {
    source: "a 403 for a permission problem",
    response: {
      status: 403,
      headers: {},
      body: { message: "Resource not accessible by integration" },
    },
  },
  {
    source: "a 403 with remaining 0 but no reset",
    response: { status: 403, headers: { "x-ratelimit-remaining": "0" } },
  },
  {
    source: "a 503 without opting in",
    response: { status: 503, headers: { "retry-after": "120" } },
  },
  {
    source: "a 500 with a rate-limit word",
    response: { status: 500, headers: {}, body: "rate limit exceeded" },
  },
  {
    source: "a JSON-RPC error that is not a rate limit",
    response: { status: 400, headers: {}, body: { error: { code: -32602, message: "bad" } } },
  },
  { source: "a status that is no integer", response: { status: 429.5, headers: {} } },
];

describe("detectThrottle: not throttles", () => {
  it.each(notThrottles)("$source", ({ response }) => {
    expect(detectThrottle(response, { now })).toBeUndefined();
  });
});

describe("detectThrottle: the clamp and the body", () => {
  it("clamps a delay to 86400 seconds by default (SEP-3304 RL-8)", () => {
    const signal = detectThrottle(
      { status: 429, headers: { "retry-after": "999999999" } },
      { now },
    );
    expect(signal?.retryAfterSeconds).toBe(86_400);
    expect(signal?.retryAfterMs).toBe(86_400_000);
  });

  it("clamps to a configured maximum", () => {
    const signal = detectThrottle(
      { status: 429, headers: { "retry-after": "600" } },
      { now, maxRetryAfterSeconds: 60 },
    );
    expect(signal?.retryAfterSeconds).toBe(60);
  });

  it("rejects a negative maximum, naming the option", () => {
    expect(() =>
      detectThrottle({ status: 429, headers: {} }, { maxRetryAfterSeconds: -1 }),
    ).toThrow(/`maxRetryAfterSeconds`/);
  });

  it("measures an epoch reset against the response's Date header", () => {
    // The upstream's clock says 11:58; its window resets at 11:59 by that clock: one minute.
    const signal = detectThrottle(
      {
        status: 429,
        headers: {
          date: "Sun, 29 Nov 2026 11:58:00 GMT",
          "x-ratelimit-reset": epoch("2026-11-29T11:59:00Z"),
        },
      },
      { now },
    );
    expect(signal?.retryAfterSeconds).toBe(60);
    expect(signal?.resetsAt).toStrictEqual(new Date("2026-11-29T12:01:00Z"));
  });

  it("ignores a Date header within its one-second resolution of our clock", () => {
    const signal = detectThrottle(
      {
        status: 429,
        headers: {
          date: "Sun, 29 Nov 2026 11:59:59 GMT",
          "x-ratelimit-reset": epoch("2026-11-29T12:00:30Z"),
        },
      },
      { now: new Date("2026-11-29T12:00:00.400Z") },
    );
    expect(signal?.retryAfterMs).toBe(29_600);
    expect(signal?.resetsAt).toStrictEqual(new Date("2026-11-29T12:00:30Z"));
  });

  it("makes one line of the upstream's message, without control characters, at most 256 characters", () => {
    const signal = detectThrottle(
      {
        status: 429,
        headers: {},
        body: { error: { message: `slow\u0000 down\r\n\u001b[31m${"x".repeat(400)}` } },
      },
      { now },
    );
    expect(signal?.message).toMatch(/^slow down \[31mx+…$/);
    expect(signal?.message).toHaveLength(256);
  });

  it.each([
    ["message", { message: "a" }, "a"],
    ["error.message", { error: { message: "b" } }, "b"],
    ["error as a string (Slack)", { ok: false, error: "ratelimited" }, "ratelimited"],
    ["error_description", { error_description: "c" }, "c"],
    ["detail (RFC 9457)", { title: "Too Many Requests", detail: "d" }, "d"],
    ["errors[0].message", { errors: [{ message: "e" }] }, "e"],
    ["a text body", "Too many requests, slow down", "Too many requests, slow down"],
  ])("takes the message from %s", (_name, body, message) => {
    expect(detectThrottle({ status: 429, headers: {}, body }, { now })?.message).toBe(message);
  });

  it("takes no message from an HTML page", () => {
    expect(
      detectThrottle({ status: 429, headers: {}, body: "<html><body>429</body></html>" }, { now })
        ?.message,
    ).toBeUndefined();
  });

  it("keeps only scheme, host and path of a URL in the message", () => {
    const signal = detectThrottle(
      {
        status: 429,
        headers: {},
        body: {
          message:
            "Limit hit for https://user:pw@api.example.com/v1/search?api_key=sk_live_123#x, retry",
        },
      },
      { now },
    );
    expect(signal?.message).toBe("Limit hit for https://api.example.com/v1/search retry");
  });

  it("never throws on strange input", () => {
    const weird = [
      { status: 429, headers: null },
      { status: 429, headers: "retry-after: 5" },
      { status: 429, headers: { "retry-after": { toString: () => "5" } } },
      { status: 429, headers: {}, body: 42 },
      { status: 429, headers: {}, body: "{not json" },
      { status: Number.NaN, headers: {} },
    ];
    for (const response of weird) {
      expect(() => detectThrottle(response as unknown as ThrottleResponse, { now })).not.toThrow();
    }
  });
});

describe("detectThrottle: the traps", () => {
  const retryAfter = (value: string) =>
    detectThrottle({ status: 429, headers: { "retry-after": value } }, { now });

  it.each([
    ["2.0", 2, "retry-after"],
    ["0", 0, "retry-after"],
    ["-5", undefined, "none"],
    ["1e3", undefined, "none"],
    ["3 apples", undefined, "none"],
    ["2026-11-29T12:01:00Z", undefined, "none"],
    ["Sat, 28 Nov 2026 12:00:00 GMT", 0, "retry-after"],
    ["999999999", 86_400, "retry-after"],
  ])("Retry-After %j gives %s seconds (%s)", (value, seconds, source) => {
    const signal = retryAfter(value);
    expect(signal?.retryAfterSeconds).toBe(seconds);
    expect(signal?.delaySource).toBe(source);
  });

  it("reads an epoch in milliseconds in X-RateLimit-Reset", () => {
    const signal = detectThrottle(
      { status: 429, headers: { "x-ratelimit-reset": String(Date.parse("2026-11-29T12:00:45Z")) } },
      { now },
    );
    expect(signal?.retryAfterSeconds).toBe(45);
  });

  it("measures a reset two minutes behind the response's Date against that Date", () => {
    // The upstream's clock is two minutes behind ours; its window resets 30 s after its "now".
    const signal = detectThrottle(
      {
        status: 429,
        headers: {
          date: "Sun, 29 Nov 2026 11:58:00 GMT",
          "x-ratelimit-reset": epoch("2026-11-29T11:58:30Z"),
        },
      },
      { now },
    );
    expect(signal?.retryAfterSeconds).toBe(30);
    expect(signal?.resetsAt).toStrictEqual(new Date("2026-11-29T12:00:30Z"));
  });

  it("prefers Retry-After over the IETF RateLimit field (draft §7)", () => {
    const signal = detectThrottle(
      { status: 429, headers: { "retry-after": "10", ratelimit: '"burst";r=0;t=30' } },
      { now },
    );
    expect(signal).toMatchObject({
      retryAfterSeconds: 10,
      delaySource: "retry-after",
      limitName: "burst",
    });
  });

  it("does not count Anthropic's 529 overloaded as a throttle", () => {
    expect(
      detectThrottle(
        {
          status: 529,
          headers: { "retry-after": "5" },
          body: { type: "error", error: { type: "overloaded_error" } },
        },
        { now },
      ),
    ).toBeUndefined();
  });

  it.each([
    ["Slack's envelope", { ok: false, error: "ratelimited" }],
    [
      "Google's RESOURCE_EXHAUSTED",
      { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Quota exceeded" } },
    ],
    [
      "Stripe's legacy rate_limit code (before API version 2015-09-08, on HTTP 400)",
      { error: { code: "rate_limit", message: "Too many requests" } },
    ],
  ])("counts %s on a 400", (_name, body) => {
    expect(detectThrottle({ status: 400, headers: {}, body }, { now })).toBeDefined();
  });
});
