// Attack: an upstream hides its throttles from operators by sending the header the library once
// marked its own cooldown answers with. A throttle is still reported: the mark that says "the
// library answered this from its cooldown" is one no upstream header can forge.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MemoryCooldownStore,
  parseRateLimitedResult,
  sdkFetch,
  type ThrottleEvent,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    res.writeHead(429, {
      "content-type": "application/json",
      "retry-after": "30",
      "x-mcp-upstream-throttle-answer": "cooldown",
    });
    res.end(JSON.stringify({ error: { message: "Slow down", type: "requests" } }));
  });
});
afterAll(() => upstream.close());

describe("a 429 carrying x-mcp-upstream-throttle-answer: cooldown", () => {
  it.each([
    ["the SDK's own fetch", () => ({})],
    ["sdkFetch", () => ({ fetch: sdkFetch() })],
    [
      "sdkFetch with cooldown",
      () => ({ fetch: sdkFetch({ cooldown: { store: new MemoryCooldownStore() } }) }),
    ],
  ])("is reported as a throttle, through %s", async (_, options) => {
    const events: ThrottleEvent[] = [];
    const client = new OpenAI({
      apiKey: "sk-test-key-0001",
      baseURL: `${upstream.url}/v1`,
      maxRetries: 0,
      ...options(),
    });
    const ask = withUpstreamThrottle(
      async () => {
        await client.chat.completions.create({ model: "gpt-test", messages: [] });
        return { content: [{ type: "text" as const, text: "answered" }] };
      },
      { limit: "openai_requests", onEvent: (event) => events.push(event) },
    );
    expect(parseRateLimitedResult(await ask())).toMatchObject({
      limit: "openai_requests",
      retry_after_seconds: 30,
    });
    expect(events.map((event) => event.type)).toStrictEqual(["throttle"]);
  });
});
