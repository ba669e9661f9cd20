// Issue 19 #3: vendor SDKs at their DEFAULT retry settings, each given the fetch its recipe
// names, against a loopback upstream that answers 429 with a long Retry-After. One tool call
// makes exactly one upstream request and returns the throttle (timings: bench/vendor-sdks.ts).
// The controls show what the defaults do without the recipe.

import Anthropic from "@anthropic-ai/sdk";
import { Client as NotionClient } from "@notionhq/client";
import { Octokit } from "@octokit/rest";
import axios from "axios";
import got from "got";
import OpenAI from "openai";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  parseRateLimitedResult,
  sdkFetch,
  throttledFetch,
  throttleInterceptor,
  toUpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
let retryAfter: Record<string, string>;
let body: unknown;
let requests = 0;

beforeAll(async () => {
  upstream = await startServer((_req, res) => {
    requests += 1;
    res.writeHead(429, { "content-type": "application/json", ...retryAfter });
    res.end(JSON.stringify(body));
  });
});

beforeEach(() => {
  requests = 0;
  retryAfter = { "retry-after": "20" };
  body = { error: { message: "Rate limit reached", type: "rate_limited" } };
});

afterAll(async () => {
  await upstream.close();
});

/** One tool call whose callback calls the SDK; the result it gave. */
async function toolCall(call: () => Promise<unknown>, limit: string) {
  const tool = withUpstreamThrottle(
    async () => {
      await call();
      return { content: [{ type: "text" as const, text: "not throttled" }] };
    },
    { limit },
  );
  return parseRateLimitedResult(await tool());
}

describe("openai and @anthropic-ai/sdk at their defaults (maxRetries: 2), with fetch: sdkFetch()", () => {
  it("control: without it, openai retries a 429 twice inside one call", async () => {
    retryAfter = { "retry-after-ms": "5" }; // short, so the control's retries take no time
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: upstream.url });
    await toolCall(() => openai.models.list(), "openai");
    expect(requests).toBe(3);
  });

  it("openai: one upstream request, its RateLimitError read with the upstream's delay", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: upstream.url, fetch: sdkFetch() });
    const error = await toolCall(() => openai.models.list(), "openai_requests");
    expect(requests).toBe(1);
    expect(error).toMatchObject({ limit: "openai_requests", retry_after_seconds: 20 });
  });

  it("@anthropic-ai/sdk: one upstream request, its RateLimitError read with the delay", async () => {
    const anthropic = new Anthropic({ apiKey: "k", baseURL: upstream.url, fetch: sdkFetch() });
    const error = await toolCall(
      () =>
        anthropic.messages.create({
          model: "claude-x",
          max_tokens: 1,
          messages: [{ role: "user", content: "hi" }],
        }),
      "anthropic_requests",
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ limit: "anthropic_requests", retry_after_seconds: 20 });
  });

  it("a throttledFetch thrown inside openai's fetch is recognised through its APIConnectionError", async () => {
    const openai = new OpenAI({
      apiKey: "sk-test",
      baseURL: upstream.url,
      maxRetries: 0,
      fetch: throttledFetch({ limit: "openai_requests" }),
    });
    const thrown = await openai.models.list().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(toUpstreamRateLimitedError(thrown)).toMatchObject({ retryAfterSeconds: 20 });
  });

  it("a throttle two causes deep (openai around undici around throttleInterceptor) is recognised", async () => {
    const dispatcher = new Agent().compose(throttleInterceptor({ limit: "openai_requests" }));
    const openai = new OpenAI({
      apiKey: "sk-test",
      baseURL: upstream.url,
      maxRetries: 0,
      fetch: ((input: string, init?: RequestInit) =>
        undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch,
    });
    const thrown = await openai.models.list().catch((error: unknown) => error);
    expect((thrown as { cause?: { cause?: unknown } }).cause?.cause).toBeDefined();
    expect(toUpstreamRateLimitedError(thrown)).toMatchObject({
      limit: "openai_requests",
      retryAfterSeconds: 20,
    });
    await dispatcher.close();
  });
});

describe("SDKs that do not retry a failed fetch, at their defaults, with fetch: throttledFetch()", () => {
  it("control: without it, @notionhq/client retries a 429 inside one call", async () => {
    retryAfter = { "retry-after": "0" };
    body = { object: "error", status: 429, code: "rate_limited", message: "Rate limited" };
    const notion = new NotionClient({ auth: "secret_x", baseUrl: upstream.url });
    await toolCall(() => notion.users.me({}), "notion");
    expect(requests).toBe(3);
  });

  it("@notionhq/client: one upstream request", async () => {
    const notion = new NotionClient({
      auth: "secret_x",
      baseUrl: upstream.url,
      fetch: throttledFetch({ limit: "notion_requests" }),
    });
    const error = await toolCall(() => notion.users.me({}), "notion");
    expect(requests).toBe(1);
    expect(error).toMatchObject({ limit: "notion_requests", retry_after_seconds: 20 });
  });

  it("@octokit/rest: one upstream request, the throttle read through its RequestError", async () => {
    const octokit = new Octokit({
      baseUrl: upstream.url,
      request: { fetch: throttledFetch({ limit: "github_core" }) },
    });
    const error = await toolCall(() => octokit.rest.users.getAuthenticated(), "github");
    expect(requests).toBe(1);
    expect(error).toMatchObject({ limit: "github_core", retry_after_seconds: 20 });
  });
});

describe("SDKs that take no fetch", () => {
  it("axios (no retries by default): one upstream request", async () => {
    const error = await toolCall(() => axios.get(`${upstream.url}/v1/x`), "api");
    expect(requests).toBe(1);
    expect(error).toMatchObject({ limit: "api", retry_after_seconds: 20 });
  });

  it("control: got retries a 429 by default, honouring Retry-After", async () => {
    retryAfter = { "retry-after": "0" };
    await toolCall(() => got(`${upstream.url}/v1/x`), "api");
    expect(requests).toBe(3);
  });

  it("got with retry: { limit: 0 }: one upstream request", async () => {
    const error = await toolCall(() => got(`${upstream.url}/v1/x`, { retry: { limit: 0 } }), "api");
    expect(requests).toBe(1);
    expect(error).toMatchObject({ limit: "api", retry_after_seconds: 20 });
  });
});
