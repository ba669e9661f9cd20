// What the vendor SDKs guide says of Slack's WebClient and of Octokit's log, with the real SDKs
// against a real node:http upstream on 127.0.0.1, each tool served by a real McpServer to a real
// Client over an in-memory pair. Slack's own wait runs on fake timers (its `setTimeout`), never
// on the wall clock.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Octokit } from "@octokit/rest";
import { WebClient, WebClientEvent } from "@slack/web-api";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseRateLimitedResult, throttledFetch, withUpstreamThrottle } from "../../src/index.js";
import {
  type CannedReply,
  cannedReply,
  startServer,
  type TestServer,
} from "../helpers/http-server.js";

let upstream: TestServer;
let reply: CannedReply;

const slackThrottle: CannedReply = {
  status: 429,
  headers: { "retry-after": "30" },
  body: { ok: false, error: "ratelimited" },
};
const slackOk: CannedReply = { status: 200, headers: {}, body: { ok: true, user: "bot" } };
const githubThrottle: CannedReply = {
  status: 429,
  headers: { "retry-after": "60", "x-github-request-id": "ABCD:1234" },
  body: { message: "API rate limit exceeded" },
};

beforeAll(async () => {
  upstream = await startServer(cannedReply(() => reply));
});

afterAll(async () => {
  await upstream.close();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A client connected to a server whose one tool, `call`, runs `run` wrapped by the library. */
async function toolCalling(run: () => Promise<unknown>, limit: string) {
  const server = new McpServer({ name: "guide", version: "1.0.0" });
  server.registerTool(
    "call",
    { description: "Calls the upstream through the SDK." },
    withUpstreamThrottle(
      async () => ({ content: [{ type: "text" as const, text: JSON.stringify(await run()) }] }),
      { limit },
    ),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "guide-test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    call: () => client.callTool({ name: "call" }) as Promise<CallToolResult>,
    close: () => client.close(),
  };
}

describe("the vendor SDKs guide: Slack's WebClient", () => {
  it("at its defaults, holds the tool call through the whole Retry-After, then sends again", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    reply = slackThrottle;
    const before = upstream.requests;
    const slack = new WebClient("xoxb-test", { slackApiUrl: `${upstream.url}/api/` });
    const waiting = new Promise<number>((resolve) =>
      slack.once(WebClientEvent.RATE_LIMITED, resolve),
    );
    const tool = await toolCalling(() => slack.auth.test(), "slack_tier3");
    let settled = false;
    const result = tool.call().finally(() => {
      settled = true;
    });
    expect(await waiting).toBe(30);
    // The 429 was seen and the client is sleeping: the tool call has no answer yet.
    await vi.advanceTimersByTimeAsync(29_000);
    expect(settled).toBe(false);
    expect(upstream.requests - before).toBe(1);
    reply = slackOk;
    // The rest of the wait, then its retry policy's first backoff (1 to 2 s, randomised).
    await vi.advanceTimersByTimeAsync(1_000 + 2_000);
    const answered = await result;
    // The retry succeeded: the model never heard of the throttle, some 31 s after the call.
    expect(answered.isError).toBeFalsy();
    expect(upstream.requests - before).toBe(2);
    await tool.close();
  });

  it("at its defaults, throws what no reader can tell from a failure once its retries run out", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    reply = slackThrottle;
    const slack = new WebClient("xoxb-test", {
      slackApiUrl: `${upstream.url}/api/`,
      retryConfig: { retries: 0 },
    });
    const waiting = new Promise((resolve) => slack.once(WebClientEvent.RATE_LIMITED, resolve));
    const tool = await toolCalling(() => slack.auth.test(), "slack_tier3");
    const result = tool.call();
    await waiting;
    await vi.advanceTimersByTimeAsync(30_000);
    const answered = await result;
    // The SDK's own error ("A rate limit was exceeded"), as the MCP SDK reports a thrown error.
    expect(answered.isError).toBe(true);
    expect(parseRateLimitedResult(answered)).toBeUndefined();
    await tool.close();
  });

  it("with fetch: throttledFetch() only, retries what the fetch throws (its retryConfig)", async () => {
    reply = slackThrottle;
    const before = upstream.requests;
    const slack = new WebClient("xoxb-test", {
      slackApiUrl: `${upstream.url}/api/`,
      fetch: throttledFetch({ limit: "slack_tier3" }),
      // Two tries, 1 ms apart, in place of the default ten over about 30 minutes.
      retryConfig: { retries: 1, minTimeout: 1, maxTimeout: 1 },
    });
    const error = await slack.auth.test().catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe("slack_webapi_request_error");
    expect(upstream.requests - before).toBe(2);
  });

  it("with rejectRateLimitedCalls: true, the tool returns the rate_limited result at once", async () => {
    reply = slackThrottle;
    const before = upstream.requests;
    const slack = new WebClient("xoxb-test", {
      slackApiUrl: `${upstream.url}/api/`,
      rejectRateLimitedCalls: true,
    });
    const tool = await toolCalling(() => slack.auth.test(), "slack_tier3");
    const result = await tool.call();
    expect(parseRateLimitedResult(result)).toMatchObject({
      type: "rate_limited",
      limit: "slack_tier3",
      retry_after_seconds: 30,
    });
    expect(upstream.requests - before).toBe(1);
    await tool.close();
  });
});

describe("the vendor SDKs guide: Octokit's request log", () => {
  /** An Octokit whose log lines (its request-log plugin's) are collected. */
  function loggingOctokit(fetch?: typeof globalThis.fetch) {
    const lines: string[] = [];
    const collect = (line: string) => void lines.push(line);
    const octokit = new Octokit({
      baseUrl: upstream.url,
      log: { debug() {}, info: collect, warn: collect, error: collect },
      ...(fetch !== undefined && { request: { fetch } }),
    });
    return { octokit, lines };
  }

  it("with request.fetch: throttledFetch(), logs the throttle as a 500 with id UNKNOWN; the result is right", async () => {
    reply = githubThrottle;
    const { octokit, lines } = loggingOctokit(throttledFetch({ limit: "github_core" }));
    const tool = await toolCalling(
      () => octokit.rest.repos.get({ owner: "o", repo: "r" }),
      "github_core",
    );
    const result = await tool.call();
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "github_core",
      retry_after_seconds: 60,
    });
    // @octokit/request gives every error its fetch throws the status 500 and no response.
    expect(lines).toEqual([expect.stringMatching(/^GET \/repos\/o\/r - 500 with id UNKNOWN in/)]);
    await tool.close();
  });

  it("without it, logs the upstream's own status and request id; the result is the same", async () => {
    reply = githubThrottle;
    const { octokit, lines } = loggingOctokit();
    const tool = await toolCalling(
      () => octokit.rest.repos.get({ owner: "o", repo: "r" }),
      "github_core",
    );
    const result = await tool.call();
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "github_core",
      retry_after_seconds: 60,
    });
    expect(lines).toEqual([expect.stringMatching(/^GET \/repos\/o\/r - 429 with id ABCD:1234 in/)]);
    await tool.close();
  });
});
