// Connection and body behaviour of both wrappers against a real loopback upstream: small
// throttled bodies are read to their end so the keep-alive socket is reused (as many connections
// as the raw call reading the same responses opens); large or endless ones are cut short and
// their sockets closed; the caller's abort wins.

import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type ThrottleOptions, throttledFetch, throttleInterceptor } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { pumpBody, rejection } from "../helpers/throttle.js";

let upstream: TestServer | undefined;
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await upstream?.close();
  upstream = undefined;
});

type Call = (url: string, signal?: AbortSignal) => Promise<unknown>;

/** Each wrapper, made the way a tool makes it, called the way a tool calls it. */
const wrappers: Record<string, (options?: ThrottleOptions) => Call> = {
  throttledFetch: (options) => {
    const call = throttledFetch(options);
    return (url, signal) => call(url, signal ? { signal } : {});
  },
  throttleInterceptor: (options) => {
    const agent = new Agent();
    agents.push(agent);
    const dispatcher = agent.compose(throttleInterceptor(options));
    return (url, signal) => request(url, { dispatcher, ...(signal ? { signal } : {}) });
  },
};

/** The raw call each wrapper stands in for, reading the whole body. */
const rawCalls: Record<string, () => (url: string) => Promise<string>> = {
  throttledFetch: () => (url) => fetch(url).then((response) => response.text()),
  throttleInterceptor: () => {
    const agent = new Agent();
    agents.push(agent);
    return (url) => request(url, { dispatcher: agent }).then((response) => response.body.text());
  },
};

/** Connections a raw call opens for `calls` sequential reads of what `serve` answers. */
async function rawConnections(name: string, serve: Serve, calls: number): Promise<number> {
  const server = await startServer(serve);
  const call = (rawCalls[name] as () => (url: string) => Promise<string>)();
  for (let i = 0; i < calls; i += 1) await call(`${server.url}/search`);
  await server.close();
  return server.connectionsOpened;
}

type Serve = Parameters<typeof startServer>[0];

const EIGHT_MIB = 8 * 1024 * 1024;

describe.each(Object.entries(wrappers))("%s against a real loopback upstream", (name, wrap) => {
  it("reuses keep-alive connections for 300 sequential throttled responses with small bodies, as the raw call does", async () => {
    const serve: Serve = (_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ message: "Too many requests" }));
    };
    upstream = await startServer(serve);
    const call = wrap({ limit: "search" });
    for (let i = 0; i < 300; i += 1) {
      const error = await rejection(call(`${upstream.url}/search`));
      expect(error.upstreamMessage).toBe("Too many requests");
    }
    // A call that follows at once may find the socket not yet back in the pool (undici waits a
    // macrotask) and open one more: never one per call, and never more than the raw call.
    expect(upstream.connectionsOpened).toBeLessThanOrEqual(2);
    expect(upstream.connectionsOpened).toBeLessThanOrEqual(await rawConnections(name, serve, 300));
  });

  it("reuses the connection for a small chunked body without Content-Length", async () => {
    const serve: Serve = (_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "2" });
      res.write("slow ");
      res.end("down");
    };
    upstream = await startServer(serve);
    const call = wrap();
    for (let i = 0; i < 30; i += 1) {
      const error = await rejection(call(upstream.url));
      expect(error.upstreamMessage).toBe("slow down");
    }
    expect(upstream.connectionsOpened).toBeLessThanOrEqual(2);
    expect(upstream.connectionsOpened).toBeLessThanOrEqual(await rawConnections(name, serve, 30));
  });

  it.each([
    ["with Content-Length", true],
    ["chunked, without Content-Length", false],
  ])(
    "cuts 20 throttled 8 MiB bodies (%s) short and closes their sockets",
    async (_case, declared) => {
      const finished = { count: 0 };
      upstream = await startServer((_req, res) => {
        const headers: Record<string, string> = {
          "content-type": "text/plain",
          "retry-after": "7",
        };
        if (declared) headers["content-length"] = String(EIGHT_MIB);
        res.writeHead(429, headers);
        pumpBody(res, EIGHT_MIB, finished);
      });
      const call = wrap();
      for (let i = 0; i < 20; i += 1) {
        const error = await rejection(call(upstream.url));
        expect(error.retryAfterSeconds).toBe(7);
      }
      expect(upstream.requests).toBe(20);
      // No body went out to its end: each was cancelled, not drained or buffered.
      expect(finished.count).toBe(0);
      // Every connection that carried a cancelled body is closed. (undici may also hold an idle
      // connection it opened ahead, which carried no request; it closes at its keep-alive timeout.)
      expect(await eventually(() => upstream?.usedConnectionsOpen === 0)).toBe(true);
    },
  );

  it("gives up reading a body that never ends at its time bound and keeps the header's delay", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "11" });
      res.write("still going");
    });
    const error = await rejection(wrap({ bodyTimeoutMs: 100 })(upstream.url));
    expect(error).toMatchObject({ retryAfterSeconds: 11, upstreamMessage: "still going" });
    expect(await eventually(() => upstream?.usedConnectionsOpen === 0)).toBe(true);
  });

  it("rejects with the caller's abort reason when aborted during the body read", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "3" });
      res.write("partial");
    });
    const controller = new AbortController();
    const pending = wrap({ bodyTimeoutMs: 10_000 })(upstream.url, controller.signal);
    setTimeout(() => controller.abort(new Error("tool call cancelled")), 50);
    await expect(pending).rejects.toThrow("tool call cancelled");
  });
});
