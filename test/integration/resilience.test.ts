// An upstream that misbehaves while it throttles: the wrappers still report the throttle the
// headers announced, never hang, and never turn a transport failure into something else.

import { Agent, request, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  isUpstreamRateLimitedError,
  throttledFetch,
  throttleInterceptor,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer | undefined;
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await upstream?.close();
  upstream = undefined;
});

function agent(options?: ConstructorParameters<typeof Agent>[0]) {
  const created = new Agent(options);
  agents.push(created);
  return created;
}

async function settle(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "resolved",
    (error: unknown) => error,
  );
}

/** Both wrappers, called the way a tool would call them. */
const clients = {
  throttledFetch: (url: string) => throttledFetch()(url),
  throttleInterceptor: (url: string) =>
    request(url, { dispatcher: agent().compose(throttleInterceptor()) }),
};

describe.each(Object.entries(clients))("%s against a misbehaving upstream", (_name, call) => {
  it("keeps the header's delay when the connection is reset in the middle of a 429 body", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "13" });
      res.write('{"message": "cut sh');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await settle(call(upstream.url));
    expect(isUpstreamRateLimitedError(error), String(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterSeconds: 13 });
    expect((error as { upstreamMessage?: string }).upstreamMessage).toBeUndefined();
  });

  it("ignores malformed JSON in a 429 body: the header's delay, no message", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "4" });
      res.end('{"message": "unterminated');
    });
    const error = await settle(call(upstream.url));
    expect(isUpstreamRateLimitedError(error), String(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterSeconds: 4 });
    expect((error as { upstreamMessage?: string }).upstreamMessage).toBeUndefined();
  });

  it("passes a 100 KiB header block's transport error through unchanged (undici's 16 KiB default)", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "retry-after": "5", "x-padding": "p".repeat(100 * 1024) });
      res.end();
    });
    const error = await settle(call(upstream.url));
    expect(isUpstreamRateLimitedError(error)).toBe(false);
    expect(error).toBeInstanceOf(Error);
  });
});

describe("100 KiB of response headers, with a dispatcher that admits them", () => {
  const bigHeaders = {
    "retry-after": "5",
    "x-padding": "p".repeat(100 * 1024),
    "content-type": "text/plain",
  };

  it("throttledFetch over undici's fetch still reads the delay", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, bigHeaders);
      res.end("slow");
    });
    const dispatcher = agent({ maxHeaderSize: 256 * 1024 });
    const fetchWithBigHeaders = ((input: string, init?: object) =>
      undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
    const error = await settle(throttledFetch({ fetch: fetchWithBigHeaders })(upstream.url));
    expect(error).toMatchObject({ retryAfterSeconds: 5, upstreamMessage: "slow" });
  });

  it("throttleInterceptor still reads the delay", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, bigHeaders);
      res.end("slow");
    });
    const dispatcher = agent({ maxHeaderSize: 256 * 1024 }).compose(throttleInterceptor());
    const error = await settle(request(upstream.url, { dispatcher }));
    expect(error).toMatchObject({ retryAfterSeconds: 5, upstreamMessage: "slow" });
  });
});
