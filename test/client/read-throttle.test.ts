// readThrottle, one row per shape a host meets, built with the client libraries' own error
// classes where they export them. What the real clients throw over the wire is checked in the
// integration tests (sdk-clients, ai-sdk, langchain).

import { ProtocolError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readThrottle, ThrottleCooldownError } from "../../src/client/index.js";
import { rateLimitedResult } from "../../src/index.js";

const sep3304 = (data: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id: 3, error: { code: -32023, message: "Rate limited", data } });
const result = rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 60 });
const TEXT = "Rate limited by search_rate_limit. Retry after 60 seconds.";

describe("readThrottle: the tool layer", () => {
  it.each([
    ["a §2 result (structuredContent)", result, "structuredContent"],
    [
      "a §2 result for a tool with an outputSchema (_meta)",
      rateLimitedResult(
        { limit: "search_rate_limit", retryAfterSeconds: 60 },
        { placement: "meta" },
      ),
      "_meta",
    ],
    [
      "only the text of an isError result",
      { content: [{ type: "text", text: TEXT }], isError: true },
      "text",
    ],
    ["only { error }, as Mastra keeps it", { error: result.structuredContent?.error }, "error"],
    ["only the text", TEXT, "text"],
    [
      "LangChain's ToolException (its message around the text)",
      Object.assign(new Error(`MCP tool 'search' on server 'docs' returned an error: ${TEXT}`), {
        name: "ToolException",
      }),
      "text",
    ],
    ["an error whose message is the text", new Error(TEXT), "text"],
  ])("reads %s", (_case, value, source) => {
    expect(readThrottle(value)).toStrictEqual({
      layer: "tool",
      limit: "search_rate_limit",
      retryAfterMs: 60_000,
      source,
    });
  });

  it("reads a throttle with no known delay, and says so by leaving the delay out", () => {
    expect(readThrottle(rateLimitedResult({ limit: "core" }))).toStrictEqual({
      layer: "tool",
      limit: "core",
      source: "structuredContent",
    });
  });

  it.each([
    ["a success", { content: [{ type: "text", text: "3 hits" }] }],
    ["the text without isError", { content: [{ type: "text", text: TEXT }] }],
    [
      "an isError result in prose",
      { content: [{ type: "text", text: "Rate limited, try again in a minute." }], isError: true },
    ],
    [
      "the text as the second block",
      {
        content: [
          { type: "text", text: "Oops." },
          { type: "text", text: TEXT },
        ],
        isError: true,
      },
    ],
    [
      "an error object of another type",
      { isError: true, structuredContent: { error: { type: "quota", limit: "x", message: "" } } },
    ],
    [
      "an error object with an extra field",
      { error: { ...result.structuredContent?.error, retry: true } },
    ],
    [
      "a fractional retry_after_seconds",
      { error: { ...result.structuredContent?.error, retry_after_seconds: 1.5 } },
    ],
    [
      "a ToolException for another error",
      Object.assign(new Error("MCP tool 'search' on server 'docs' returned an error: Not found"), {
        name: "ToolException",
      }),
    ],
  ])("does not read %s as a throttle", (_case, value) => {
    expect(readThrottle(value)).toBeUndefined();
  });
});

describe("readThrottle: the outer layer", () => {
  it.each([
    [
      "SDK 1.x McpError -32023 (SEP-3304)",
      new McpError(-32023, "Rate limited", { retryAfterMs: 1500 }),
      1500,
      "retryAfterMs",
    ],
    [
      "SDK 2.x ProtocolError -32023",
      new ProtocolError(-32023, "Rate limited", { retryAfterMs: 1500 }),
      1500,
      "retryAfterMs",
    ],
    [
      "-32029 with data.retryAfterSeconds",
      new McpError(-32029, "Checkout is temporarily rate limited.", {
        reason: "checkout-rate-limited",
        retryAfterSeconds: 41,
      }),
      41_000,
      "retryAfterSeconds",
    ],
    [
      "-32029 with both delays (RL-9: retryAfterMs wins)",
      new McpError(-32029, "Too many requests", { retryAfterSeconds: 41, retryAfterMs: 250 }),
      250,
      "retryAfterMs",
    ],
    [
      "-31029 (the 2026-07-28 code)",
      new ProtocolError(-31029, "Rate limit exceeded", { retryAfterMs: 0 }),
      0,
      "retryAfterMs",
    ],
    [
      "a raw JSON-RPC error response",
      JSON.parse(sep3304({ retryAfterMs: 700 })),
      700,
      "retryAfterMs",
    ],
    [
      "SDK 1.x StreamableHTTPError 429 with the SEP-3304 body",
      new StreamableHTTPError(429, `Error POSTing to endpoint: ${sep3304({ retryAfterMs: 200 })}`),
      200,
      "retryAfterMs",
    ],
    [
      "SDK 2.x SdkHttpError 429 with the SEP-3304 body",
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: …", {
        status: 429,
        statusText: "Too Many Requests",
        text: sep3304({ retryAfterMs: 200 }),
      }),
      200,
      "retryAfterMs",
    ],
    [
      "@ai-sdk/mcp 1.0 MCPClientError 429 (its shape)",
      Object.assign(new Error("MCP HTTP Transport Error: POSTing to endpoint (HTTP 429): …"), {
        name: "MCPClientError",
        statusCode: 429,
        responseBody: sep3304({ retryAfterMs: 200 }),
      }),
      200,
      "retryAfterMs",
    ],
    [
      "an error wrapping one in its cause",
      new Error("Failed after 3 attempts", {
        cause: new McpError(-32023, "Rate limited", { retryAfterMs: 90 }),
      }),
      90,
      "retryAfterMs",
    ],
  ])("reads %s", (_case, value, retryAfterMs, source) => {
    expect(readThrottle(value)).toStrictEqual({ layer: "server", retryAfterMs, source });
  });

  it.each([
    [
      "-32029 per minute, with no data",
      new McpError(-32029, "Rate limit exceeded. Max 60 requests per minute per user."),
      "code",
    ],
    [
      "-32023 whose retryAfterMs is not a number",
      new McpError(-32023, "Rate limited", { retryAfterMs: "1500" }),
      "code",
    ],
    [
      "-32023 whose retryAfterMs is negative",
      new McpError(-32023, "Rate limited", { retryAfterMs: -1 }),
      "code",
    ],
    [
      "-32023 whose retryAfterMs is not finite",
      new McpError(-32023, "Rate limited", { retryAfterMs: Number.POSITIVE_INFINITY }),
      "code",
    ],
    [
      "an HTTP 429 with a text body",
      new StreamableHTTPError(429, "Error POSTing to endpoint: Too many requests"),
      "status",
    ],
    [
      "an HTTP 429 with no body",
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: ", {
        status: 429,
        statusText: "Too Many Requests",
        text: "",
      }),
      "status",
    ],
  ])("reads %s as a throttle with no known delay", (_case, value, source) => {
    expect(readThrottle(value)).toStrictEqual({ layer: "server", source });
  });

  it.each([
    ["-32602", new McpError(-32602, "Invalid params")],
    [
      "an HTTP 503",
      new StreamableHTTPError(503, `Error POSTing to endpoint: ${sep3304({ retryAfterMs: 5 })}`),
    ],
    [
      "a 2.x ProtocolError -32603",
      new ProtocolError(-32603, "Internal error", { retryAfterMs: 5 }),
    ],
    ["a plain error", new Error("socket hang up")],
  ])("does not read %s as a throttle", (_case, value) => {
    expect(readThrottle(value)).toBeUndefined();
  });

  it("reads the cooldown's own error, for either layer", () => {
    expect(
      readThrottle(new ThrottleCooldownError({ layer: "server", retryAfterMs: 1200 })),
    ).toStrictEqual({
      layer: "server",
      retryAfterMs: 1200,
      source: "cooldown",
    });
    const tool = new ThrottleCooldownError({ layer: "tool", limit: "search", retryAfterMs: 1200 });
    expect(tool.message).toBe("Rate limited by search. Retry after 2 seconds.");
    expect(readThrottle(tool)).toMatchObject({
      layer: "tool",
      limit: "search",
      source: "cooldown",
    });
  });
});

describe("readThrottle on hostile values", () => {
  const hostileProxy = () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error("get trap");
        },
        has() {
          throw new Error("has trap");
        },
        ownKeys() {
          throw new Error("ownKeys trap");
        },
        getPrototypeOf() {
          throw new Error("getPrototypeOf trap");
        },
      },
    );
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwingGetters = (keys: readonly string[]) =>
    Object.defineProperties(
      {},
      Object.fromEntries(
        keys.map((key) => [
          key,
          {
            enumerable: true,
            get() {
              throw new Error(`getter ${key}`);
            },
          },
        ]),
      ),
    );
  const KEYS = [
    "isError",
    "structuredContent",
    "_meta",
    "content",
    "error",
    "message",
    "code",
    "data",
    "status",
    "statusCode",
    "responseBody",
    "text",
    "cause",
    "retryAfterMs",
  ];

  it("never throws on proxies, revoked proxies or throwing getters", () => {
    const values = [
      hostileProxy(),
      revoked(),
      throwingGetters(KEYS),
      { isError: true, structuredContent: hostileProxy() },
      { isError: true, content: [hostileProxy()] },
      { code: -32023, data: throwingGetters(["retryAfterMs", "retryAfterSeconds"]) },
      { data: { status: 429, text: hostileProxy() } },
      { code: 429, message: revoked() },
      Object.assign(new Error("x"), { cause: revoked() }),
    ];
    for (const value of values) expect(() => readThrottle(value)).not.toThrow();
  });

  it("ends on a cycle of causes", () => {
    const first = new Error("first");
    const second = new Error("second", { cause: first });
    Object.assign(first, { cause: second });
    expect(readThrottle(first)).toBeUndefined();
  });

  it("never throws on anything, and returns only well-formed throttles", () => {
    const shaped = fc.oneof(
      fc.anything(),
      fc.record({
        code: fc.constantFrom(-32023, -32029, -31029, 429),
        data: fc.anything(),
        message: fc.string(),
      }),
      fc.record({
        isError: fc.constant(true),
        structuredContent: fc.record({ error: fc.anything() }),
        content: fc.anything(),
      }),
      fc.record({ statusCode: fc.constant(429), responseBody: fc.string() }),
      fc.record({ data: fc.record({ status: fc.constant(429), text: fc.string() }) }),
    );
    fc.assert(
      fc.property(shaped, (value) => {
        const throttle = readThrottle(value);
        if (throttle === undefined) return;
        expect(["tool", "server"]).toContain(throttle.layer);
        if (throttle.retryAfterMs !== undefined) {
          expect(Number.isFinite(throttle.retryAfterMs) && throttle.retryAfterMs >= 0).toBe(true);
        }
      }),
    );
  });
});
