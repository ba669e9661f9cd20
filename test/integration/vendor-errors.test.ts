// Each vendor SDK, installed for real and pointed at a loopback upstream that throttles: the
// error that SDK really throws goes through withUpstreamThrottle. SDK retries are off.

import Anthropic from "@anthropic-ai/sdk";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
  InMemoryTransport as InMemoryTransportV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Octokit } from "@octokit/rest";
import axios from "axios";
import got from "got";
import ky from "ky";
import OpenAI from "openai";
import { Agent, interceptors, RetryAgent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  parseRateLimitedResult,
  toUpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";
import {
  type CannedReply,
  cannedReply,
  startServer,
  type TestServer,
} from "../helpers/http-server.js";

let upstream: TestServer;
let reply: CannedReply;

beforeAll(async () => {
  upstream = await startServer(cannedReply(() => reply));
});

afterAll(async () => {
  await upstream.close();
});

/** Runs `call` inside a wrapped tool callback and returns the result it produced. */
async function throttledResult(call: () => Promise<unknown>, options?: { limit?: string }) {
  const tool = withUpstreamThrottle(async () => {
    await call();
    return { content: [{ type: "text" as const, text: "not throttled" }] };
  }, options);
  const result = await tool();
  const error = parseRateLimitedResult(result);
  expect(error, JSON.stringify(result)).toBeDefined();
  return { result, error };
}

const slowDown = {
  error: {
    message: "Rate limit reached for requests",
    type: "requests",
    code: "rate_limit_exceeded",
  },
};

describe("openai (RateLimitError)", () => {
  it("becomes a rate_limited result with OpenAI's reset duration and message", async () => {
    reply = {
      status: 429,
      headers: {
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": "6m0s",
        "x-ratelimit-reset-tokens": "1s",
      },
      body: slowDown,
    };
    const openai = new OpenAI({ apiKey: "sk-test-SECRET", baseURL: upstream.url, maxRetries: 0 });
    const { result, error } = await throttledResult(() => openai.models.list(), {
      limit: "openai_requests",
    });
    expect(error).toStrictEqual({
      type: "rate_limited",
      retry_after_seconds: 360,
      limit: "openai_requests",
      message: "Rate limit reached for requests",
    });
    expect(result.content).toStrictEqual([
      {
        type: "text",
        text: 'Rate limited by openai_requests. Retry after 360 seconds. The upstream said: "Rate limit reached for requests"',
      },
    ]);
  });
});

describe("openai (RateLimitError) whose only wait is in its message", () => {
  it("reports the wait the message states (delaySource message), and the message itself", async () => {
    const message =
      "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29800, Requested 900. Please try again in 1.4s.";
    reply = {
      status: 429,
      headers: {},
      body: { error: { message, type: "tokens", code: "rate_limit_exceeded" } },
    };
    const openai = new OpenAI({ apiKey: "sk-test-SECRET", baseURL: upstream.url, maxRetries: 0 });
    const { error } = await throttledResult(() => openai.models.list(), { limit: "openai_tpm" });
    expect(error).toMatchObject({ retry_after_seconds: 2, limit: "openai_tpm", message });
    let thrown: unknown;
    try {
      await openai.models.list();
    } catch (caught) {
      thrown = caught;
    }
    expect(toUpstreamRateLimitedError(thrown)).toMatchObject({
      retryAfterMs: 1400,
      delaySource: "message",
    });
  });
});

describe("@anthropic-ai/sdk (RateLimitError)", () => {
  it("becomes a rate_limited result with Retry-After", async () => {
    reply = {
      status: 429,
      headers: { "retry-after": "13", "anthropic-ratelimit-requests-remaining": "0" },
      body: {
        type: "error",
        error: {
          type: "rate_limit_error",
          message: "Number of requests has exceeded your rate limit.",
        },
      },
    };
    const anthropic = new Anthropic({ apiKey: "k", baseURL: upstream.url, maxRetries: 0 });
    const { error } = await throttledResult(() => anthropic.models.list(), { limit: "anthropic" });
    expect(error).toMatchObject({
      retry_after_seconds: 13,
      message: "Number of requests has exceeded your rate limit.",
    });
  });

  it("rethrows 529 overloaded unchanged: that is no throttle", async () => {
    reply = {
      status: 529,
      headers: { "retry-after": "5" },
      body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    };
    const anthropic = new Anthropic({ apiKey: "k", baseURL: upstream.url, maxRetries: 0 });
    let thrown: unknown;
    const tool = withUpstreamThrottle(async () => {
      try {
        await anthropic.models.list();
      } catch (error) {
        thrown = error;
        throw error;
      }
      return { content: [] };
    });
    const rejected = await tool().catch((reason: unknown) => reason);
    expect(rejected).toBe(thrown);
    expect((thrown as { status?: number; constructor: { name: string } }).constructor.name).toBe(
      "OverloadedError",
    );
    expect((thrown as { status?: number }).status).toBe(529);
  });
});

describe("@octokit/rest (RequestError)", () => {
  it("recognises GitHub's primary limit and names it by x-ratelimit-resource", async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    reply = {
      status: 403,
      headers: {
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "core",
      },
      body: {
        message: "API rate limit exceeded for 127.0.0.1.",
        documentation_url: "https://docs.github.com/rest",
      },
    };
    const octokit = new Octokit({
      baseUrl: upstream.url,
      request: { retries: 0 },
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    const { error } = await throttledResult(() =>
      octokit.rest.repos.get({ owner: "o", repo: "r" }),
    );
    expect(error?.limit).toBe("core");
    expect(error?.retry_after_seconds).toBeGreaterThanOrEqual(118);
    expect(error?.retry_after_seconds).toBeLessThanOrEqual(120);
    expect(error?.resets_at).toBe(new Date(reset * 1000).toISOString());
  });

  it("recognises GitHub's secondary limit", async () => {
    reply = {
      status: 403,
      headers: { "retry-after": "60" },
      body: {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
    };
    const octokit = new Octokit({
      baseUrl: upstream.url,
      request: { retries: 0 },
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    const { error } = await throttledResult(() => octokit.rest.search.code({ q: "x" }), {
      limit: "github_search",
    });
    expect(error).toMatchObject({ limit: "github_search", retry_after_seconds: 60 });
    expect(error?.message).toMatch(/secondary rate limit/);
  });
});

describe("axios (AxiosError)", () => {
  it("reads response.status, AxiosHeaders and response.data; names the limit by host", async () => {
    reply = {
      status: 429,
      headers: { "retry-after": "5" },
      body: { message: "Too many requests" },
    };
    const { error } = await throttledResult(() =>
      axios.get(`${upstream.url}/search?api_key=SECRET_KEY_1`),
    );
    expect(error).toStrictEqual({
      type: "rate_limited",
      retry_after_seconds: 5,
      limit: "127.0.0.1",
      message: "Too many requests",
    });
  });
});

describe("got (HTTPError)", () => {
  it("reads response.statusCode and the text body; Retry-After 2.0 is 2 seconds", async () => {
    reply = {
      status: 429,
      headers: { "retry-after": "2.0", "content-type": "text/plain" },
      body: "Exceeded 2 calls per second",
    };
    const { error } = await throttledResult(
      () => got(`${upstream.url}/x`, { retry: { limit: 0 } }),
      { limit: "shopify" },
    );
    expect(error).toMatchObject({ retry_after_seconds: 2, message: "Exceeded 2 calls per second" });
  });
});

describe("ky (HTTPError holding an unread Response)", () => {
  it("reads the body within bounds: Google's RetryInfo gives the delay", async () => {
    reply = {
      status: 429,
      headers: {},
      body: {
        error: {
          code: 429,
          status: "RESOURCE_EXHAUSTED",
          message: "Quota exceeded",
          details: [
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "57.238747106s" },
          ],
        },
      },
    };
    const { error } = await throttledResult(() => ky.get(`${upstream.url}/x`, { retry: 0 }), {
      limit: "google",
    });
    expect(error).toMatchObject({ retry_after_seconds: 58, message: "Quota exceeded" });
  });

  it("rethrows a 404 unchanged, its response still readable", async () => {
    reply = { status: 404, headers: {}, body: { message: "Not Found" } };
    const tool = withUpstreamThrottle(async () => {
      await ky.get(`${upstream.url}/x`, { retry: 0 });
      return { content: [] };
    });
    const error = (await tool().catch((reason: unknown) => reason)) as { response: Response };
    expect(error.response.status).toBe(404);
    expect(await error.response.json()).toStrictEqual({ message: "Not Found" });
  });
});

describe("undici", () => {
  it("ResponseError from the responseError interceptor, with the IETF RateLimit field", async () => {
    reply = {
      status: 429,
      headers: { ratelimit: '"per-minute";r=0;t=17', "ratelimit-policy": '"per-minute";q=60;w=60' },
      body: { message: "slow" },
    };
    const dispatcher = new Agent().compose(interceptors.responseError());
    const { error } = await throttledResult(() => request(`${upstream.url}/x`, { dispatcher }));
    expect(error).toMatchObject({ limit: "per-minute", retry_after_seconds: 17 });
    await dispatcher.close();
  });

  it("RequestRetryError from RetryAgent", async () => {
    reply = { status: 429, headers: { "retry-after": "9" }, body: "" };
    const dispatcher = new RetryAgent(new Agent(), { maxRetries: 0 });
    const { error } = await throttledResult(() => request(`${upstream.url}/x`, { dispatcher }), {
      limit: "api",
    });
    expect(error).toMatchObject({ limit: "api", retry_after_seconds: 9 });
    await dispatcher.close();
  });
});

describe("the MCP SDK's own errors, when a tool calls another MCP server", () => {
  const sep3304 = {
    status: 429,
    headers: { "retry-after": "3", "ratelimit-limit": "100", "ratelimit-remaining": "0" },
    body: {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32023, message: "Rate limited", data: { retryAfterMs: 2500 } },
    },
  };

  it("1.x StreamableHTTPError (code 429, the body in its message): retryAfterMs wins", async () => {
    reply = sep3304;
    const client = new Client({ name: "inner", version: "1.0.0" });
    const { error } = await throttledResult(
      () => client.connect(new StreamableHTTPClientTransport(new URL(`${upstream.url}/mcp`))),
      { limit: "inner_mcp" },
    );
    expect(error).toMatchObject({
      limit: "inner_mcp",
      retry_after_seconds: 3,
      message: "Rate limited",
    });
  });

  it("2.x SdkHttpError (data.status, data.text): retryAfterMs wins", async () => {
    reply = {
      ...sep3304,
      body: { ...sep3304.body, error: { ...sep3304.body.error, data: { retryAfterMs: 4100 } } },
    };
    const client = new ClientV2({ name: "inner", version: "1.0.0" });
    const { error } = await throttledResult(
      () => client.connect(new HttpTransportV2(new URL(`${upstream.url}/mcp`))),
      {
        limit: "inner_mcp",
      },
    );
    expect(error).toMatchObject({ limit: "inner_mcp", retry_after_seconds: 5 });
  });

  async function rateLimitingServer() {
    const server = new Server(
      { name: "throttling", version: "1.0.0" },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(CallToolRequestSchema, () => {
      throw new McpError(-32023, "Rate limited", { retryAfterMs: 1500, limit: 10, remaining: 0 });
    });
    return server;
  }

  it("1.x McpError -32023 with data.retryAfterMs", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await (await rateLimitingServer()).connect(serverSide);
    const client = new Client({ name: "inner", version: "1.0.0" });
    await client.connect(clientSide);
    const { error } = await throttledResult(() => client.callTool({ name: "x", arguments: {} }), {
      limit: "inner_mcp",
    });
    expect(error).toMatchObject({ limit: "inner_mcp", retry_after_seconds: 2 });
    await client.close();
  });

  it("2.x ProtocolError -32023 with data.retryAfterMs", async () => {
    const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair();
    await (await rateLimitingServer()).connect(serverSide);
    const client = new ClientV2({ name: "inner", version: "1.0.0" });
    await client.connect(clientSide);
    let thrown: unknown;
    const { error } = await throttledResult(async () => {
      try {
        await client.callTool({ name: "x", arguments: {} });
      } catch (caught) {
        thrown = caught;
        throw caught;
      }
    });
    expect((thrown as Error).constructor.name).toBe("ProtocolError");
    expect(error).toMatchObject({ retry_after_seconds: 2, limit: "upstream" });
    await client.close();
  });
});
