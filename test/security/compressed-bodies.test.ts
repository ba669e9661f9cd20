// A throttle body sent gzip- or deflate-encoded. fetch decodes it; undici.request hands over the
// bytes as sent, so the interceptor must decode them (or drop the message), never read gzip as
// text: garbage in the model's line, and a body-only throttle missed.

import { deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { throttleInterceptor } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { throttleOf, undiciCaller } from "./helpers.js";

let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function serving(status: number, encoding: string, body: Buffer, headers = {}) {
  upstream = await startServer((_req, res) => {
    res.writeHead(status, {
      "content-type": "application/json",
      "content-encoding": encoding,
      ...headers,
    });
    res.end(body);
  });
  return upstream.url;
}

describe("throttleInterceptor decodes a compressed throttle body", () => {
  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
  ])("%s: the message is the upstream's words", async (encoding, compress) => {
    const url = await serving(
      429,
      encoding,
      compress(JSON.stringify({ message: "Too many requests" })),
      { "retry-after": "7" },
    );
    const caller = undiciCaller(throttleInterceptor());
    try {
      const throttle = await throttleOf(caller.call(url));
      expect(throttle).toMatchObject({
        upstreamMessage: "Too many requests",
        retryAfterSeconds: 7,
      });
    } finally {
      await caller.close();
    }
  });

  it("gzip: a throttle only the body shows (GitHub's secondary limit) is found", async () => {
    const url = await serving(
      403,
      "gzip",
      gzipSync(JSON.stringify({ message: "You have exceeded a secondary rate limit." })),
    );
    const caller = undiciCaller(throttleInterceptor({ limit: "github" }));
    try {
      const throttle = await throttleOf(caller.call(url));
      expect(throttle.upstreamMessage).toBe("You have exceeded a secondary rate limit.");
    } finally {
      await caller.close();
    }
  });

  it("gzip: a 403 that is no throttle goes on whole, still compressed, as the caller asked", async () => {
    const body = gzipSync(JSON.stringify({ message: "Resource not accessible" }));
    const url = await serving(403, "gzip", body);
    const caller = undiciCaller(throttleInterceptor());
    try {
      expect(await caller.call(url)).toBe(403);
    } finally {
      await caller.close();
    }
  });

  it("an encoding it does not decode (br) drops the message instead of reading bytes as text", async () => {
    const url = await serving(429, "br", Buffer.from([0x1b, 0x2f, 0x00, 0xff, 0x80, 0x41]), {
      "retry-after": "7",
    });
    const caller = undiciCaller(throttleInterceptor());
    try {
      const throttle = await throttleOf(caller.call(url));
      expect(throttle.upstreamMessage).toBeUndefined();
      expect(throttle.retryAfterSeconds).toBe(7);
    } finally {
      await caller.close();
    }
  });

  it("a gzip bomb is read no further than the cap", async () => {
    const url = await serving(429, "gzip", gzipSync(Buffer.alloc(50 * 1024 * 1024, "a")), {
      "retry-after": "7",
    });
    const caller = undiciCaller(throttleInterceptor());
    try {
      const throttle = await throttleOf(caller.call(url));
      expect([...(throttle.upstreamMessage ?? "")].length).toBeLessThanOrEqual(256);
    } finally {
      await caller.close();
    }
  });
});
