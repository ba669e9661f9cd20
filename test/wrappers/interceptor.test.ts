import { Writable } from "node:stream";
import { Agent, request, stream, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  parseRateLimitedResult,
  type ThrottleInterceptorOptions,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { rejection } from "../helpers/throttle.js";

let upstream: TestServer | undefined;
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await upstream?.close();
  upstream = undefined;
});

function composed(options?: ThrottleInterceptorOptions) {
  const agent = new Agent();
  agents.push(agent);
  return agent.compose(throttleInterceptor(options));
}

describe("throttleInterceptor with undici.request", () => {
  it("passes a success through untouched", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "retry-after": "5" });
      res.end(JSON.stringify({ hits: [1, 2] }));
    });
    const response = await request(upstream.url, { dispatcher: composed() });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toStrictEqual({ hits: [1, 2] });
  });

  it("fails a 429 with UpstreamRateLimitedError carrying the delay, message and host", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "42" });
      res.end(JSON.stringify({ message: "Too many requests" }));
    });
    const error = await rejection(
      request(`${upstream.url}/search?q=x`, { dispatcher: composed() }),
    );
    expect(error).toMatchObject({
      status: 429,
      retryAfterSeconds: 42,
      delaySource: "retry-after",
      limit: "127.0.0.1",
      limitSource: "host",
      upstreamMessage: "Too many requests",
    });
  });

  it("passes a 404 and a permission 403 through with their bodies intact (read, then replayed)", async () => {
    upstream = await startServer((req, res) => {
      const status = req.url === "/missing" ? 404 : 403;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          message: status === 404 ? "Not Found" : "Resource not accessible by integration",
        }),
      );
    });
    const dispatcher = composed();
    const missing = await request(`${upstream.url}/missing`, { dispatcher });
    expect(missing.statusCode).toBe(404);
    expect(await missing.body.json()).toStrictEqual({ message: "Not Found" });
    const forbidden = await request(`${upstream.url}/private`, { dispatcher });
    expect(forbidden.statusCode).toBe(403);
    expect(await forbidden.body.json()).toStrictEqual({
      message: "Resource not accessible by integration",
    });
  });

  it("recognises GitHub's secondary limit told only by the body", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "You have exceeded a secondary rate limit." }));
    });
    const error = await rejection(
      request(upstream.url, { dispatcher: composed({ limit: "github" }) }),
    );
    expect(error).toMatchObject({ status: 403, limit: "github", delaySource: "none" });
  });

  it("cuts out the request's credentials from the upstream's message", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "3" });
      res.end(
        JSON.stringify({ message: "key KEY_SECRET_123 and token TOKEN_SECRET_9 over quota" }),
      );
    });
    const error = await rejection(
      request(`${upstream.url}/x?api_key=KEY_SECRET_123`, {
        dispatcher: composed(),
        headers: { authorization: "Bearer TOKEN_SECRET_9" },
      }),
    );
    expect(error.upstreamMessage).toBe("key [redacted] and token [redacted] over quota");
  });

  it("rejects bad options at construction, naming them", () => {
    expect(() => throttleInterceptor({ limit: "" })).toThrow(/`limit`/);
    expect(() => throttleInterceptor({ bodyTimeoutMs: -1 })).toThrow(/`bodyTimeoutMs`/);
    expect(() => throttleInterceptor({ maxRetryAfterSeconds: Number.NaN })).toThrow(
      /`maxRetryAfterSeconds`/,
    );
  });
});

describe("throttleInterceptor with undici.stream and fetch", () => {
  it("fails undici.stream the same way", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "8" });
      res.end("slow down");
    });
    const error = await rejection(
      stream(
        upstream.url,
        { dispatcher: composed(), method: "GET" },
        () => new Writable({ write: (_c, _e, done) => done() }),
      ),
    );
    expect(error).toMatchObject({ retryAfterSeconds: 8, upstreamMessage: "slow down" });
  });

  it("fails undici's fetch with the throttle as its cause, which withUpstreamThrottle turns into the result", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "12" });
      res.end(JSON.stringify({ message: "slow" }));
    });
    const dispatcher = composed({ limit: "search" });
    const url = upstream.url;
    const tool = withUpstreamThrottle(async () => {
      await undiciFetch(url, { dispatcher });
      return { content: [] };
    });
    expect(parseRateLimitedResult(await tool())).toStrictEqual({
      type: "rate_limited",
      retry_after_seconds: 12,
      limit: "search",
      message: "slow",
    });
  });
});
