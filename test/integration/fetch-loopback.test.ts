import { afterEach, describe, expect, it } from "vitest";
import { throttledFetch } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { pumpBody, rejection } from "../helpers/throttle.js";

let upstream: TestServer | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const EIGHT_MIB = 8 * 1024 * 1024;

describe("throttledFetch against a real loopback upstream", () => {
  it("reuses one keep-alive connection for 100 sequential throttled responses with small bodies", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ message: "Too many requests" }));
    });
    const fetchThrottled = throttledFetch({ limit: "search" });
    for (let i = 0; i < 100; i += 1) {
      const error = await rejection(fetchThrottled(`${upstream.url}/search`));
      expect(error.upstreamMessage).toBe("Too many requests");
    }
    expect(upstream.connectionsOpened).toBe(1);
  });

  it("reuses the connection for a small chunked body without Content-Length", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "2" });
      res.write("slow ");
      res.end("down");
    });
    const fetchThrottled = throttledFetch();
    for (let i = 0; i < 10; i += 1) {
      const error = await rejection(fetchThrottled(upstream.url));
      expect(error.upstreamMessage).toBe("slow down");
    }
    expect(upstream.connectionsOpened).toBe(1);
  });

  it.each([
    ["with Content-Length", true],
    ["chunked, without Content-Length", false],
  ])(
    "finishes 20 throttled responses with 8 MiB bodies (%s) promptly and leaves no socket open",
    async (_name, declared) => {
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
      const fetchThrottled = throttledFetch();
      for (let i = 0; i < 20; i += 1) {
        const error = await rejection(fetchThrottled(upstream.url));
        expect(error.retryAfterSeconds).toBe(7);
      }
      // Every connection that carried a cancelled body is closed. (undici may also hold an idle
      // connection it opened ahead, which carried no request; it closes at its keep-alive timeout.)
      expect(upstream.requests).toBe(20);
      expect(await eventually(() => upstream?.usedConnectionsOpen === 0)).toBe(true);
      // No body went out to its end: each was cancelled, not drained or buffered.
      expect(finished.count).toBe(0);
    },
  );

  it("gives up reading a body that never ends and keeps the header's delay", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "11" });
      res.write("still going");
    });
    const error = await rejection(throttledFetch({ bodyTimeoutMs: 100 })(upstream.url));
    expect(error.retryAfterSeconds).toBe(11);
    expect(error.upstreamMessage).toBe("still going");
    expect(await eventually(() => upstream?.usedConnectionsOpen === 0)).toBe(true);
  });

  it("rejects with the caller's abort reason when aborted during the body read", async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "text/plain", "retry-after": "3" });
      res.write("partial");
    });
    const controller = new AbortController();
    const pending = throttledFetch({ bodyTimeoutMs: 10_000 })(upstream.url, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("tool call cancelled")), 50);
    await expect(pending).rejects.toThrow("tool call cancelled");
  });
});
