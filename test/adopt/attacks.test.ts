// Attacks on adoption from outside: a second install, a tool whose work outlives its call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useScopeForTests } from "../../src/adopt/call-scope.js";
import { throttleGlobalFetch } from "../../src/adopt/global-fetch.js";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult } from "../../src/contract/result.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/limited")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "12" });
      res.end(JSON.stringify({ error: "Too many requests, slow down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true }));
  });
});
afterAll(() => upstream.close());
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("throttleGlobalFetch installed twice", () => {
  it("puts the process's own fetch back when the second install is restored", () => {
    const before = globalThis.fetch;
    const first = throttleGlobalFetch();
    const second = throttleGlobalFetch();
    second();
    expect(globalThis.fetch).toBe(before);
    first();
    expect(globalThis.fetch).toBe(before);
  });

  it("replaces the first install: its throwOnThrottle no longer applies", async () => {
    const first = throttleGlobalFetch({ throwOnThrottle: true });
    const second = throttleGlobalFetch();
    closers.push(first, second);
    const response = await fetch(`${upstream.url}/limited`);
    expect(response.status).toBe(429);
    await response.text();
  });
});
