import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ThrottleGlobalFetchOptions,
  throttleGlobalFetch,
} from "../../src/adopt/global-fetch.js";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult } from "../../src/contract/result.js";
import { isUpstreamRateLimitedError } from "../../src/errors/upstream-rate-limited-error.js";
import { callScope, useScopeForTests } from "../../src/internal/call-scope.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
const closers: (() => Promise<void> | void)[] = [];
// Kept before any install, as an SDK that captures `fetch` at import keeps it.
const capturedFetch = globalThis.fetch;

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

function install(options?: ThrottleGlobalFetchOptions): void {
  closers.push(throttleGlobalFetch(options));
}

async function connect(server: { connect(t: InMemoryTransport): Promise<void> }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client;
}

/** A low-level Server in the style of many published ones: plain fetch, a catch-all. */
function braveStyleServer(fetchFn: () => typeof fetch): Server {
  const server = new Server({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "web_search", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    try {
      const response = await fetchFn()(`${upstream.url}/limited`);
      if (!response.ok) {
        throw new Error(
          `API error: ${response.status} ${response.statusText}\n${await response.text()}`,
        );
      }
      return { content: [{ type: "text", text: await response.text() }] };
    } catch (error) {
      const text = `Error: ${error instanceof Error ? error.message : String(error)}`;
      return { content: [{ type: "text", text }], isError: true };
    }
  });
  return server;
}

describe("throttleGlobalFetch", () => {
  it("leaves what the process sees unchanged: a 429 is still a 429 whose body reads", async () => {
    install();
    const response = await fetch(`${upstream.url}/limited`);
    expect(response.status).toBe(429);
    expect(await response.json()).toStrictEqual({ error: "Too many requests, slow down" });
  });

  it("throws UpstreamRateLimitedError when asked to", async () => {
    install({ throwOnThrottle: true, limit: "brave" });
    const error = await fetch(`${upstream.url}/limited`).catch((e: unknown) => e);
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(error).toMatchObject({ limit: "brave", retryAfterSeconds: 12 });
  });

  it("puts the original fetch back", () => {
    const before = globalThis.fetch;
    const restore = throttleGlobalFetch();
    expect(globalThis.fetch).not.toBe(before);
    restore();
    expect(globalThis.fetch).toBe(before);
  });

  it("rejects a bad option by name", () => {
    expect(() => throttleGlobalFetch({ throwOnThrottle: "yes" as never })).toThrow(
      /`throwOnThrottle`/,
    );
  });

  it("control: without it, a low-level Server's catch-all sends the 429 as Error text", async () => {
    const client = await connect(throttleServer(braveStyleServer(() => globalThis.fetch)));
    const result = await client.callTool({ name: "web_search", arguments: {} });
    expect(parseRateLimitedResult(result)).toBeUndefined();
    expect(result.content).toMatchObject([
      { text: expect.stringMatching(/^Error: API error: 429/) },
    ]);
  });

  it("with throttleServer, a low-level Server's fetch behind a catch-all gives the rate_limited result", async () => {
    install({ limit: "brave" });
    const client = await connect(throttleServer(braveStyleServer(() => globalThis.fetch)));
    const result = await client.callTool({ name: "web_search", arguments: {} });
    // The upstream's words after the sentence; the tool's own text after the result's.
    expect(result.content).toStrictEqual([
      {
        type: "text",
        text: 'Rate limited by brave. Retry after 12 seconds. The upstream said: "Too many requests, slow down"',
      },
      {
        type: "text",
        text: 'Error: API error: 429 Too Many Requests\n{"error":"Too many requests, slow down"}',
      },
    ]);
    expect(parseRateLimitedResult(result)).toStrictEqual({
      type: "rate_limited",
      limit: "brave",
      retry_after_seconds: 12,
      message: "Too many requests, slow down",
    });
  });

  it("reaches a fetch captured before it was installed, through undici's global dispatcher", async () => {
    install({ limit: "exa" });
    const client = await connect(throttleServer(braveStyleServer(() => capturedFetch)));
    const result = await client.callTool({ name: "web_search", arguments: {} });
    expect(parseRateLimitedResult(result)).toMatchObject({ limit: "exa", retry_after_seconds: 12 });
  });

  it("upgrades a tool that reports the 429 body as a success", async () => {
    install();
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }), {
      limit: "slack",
    });
    server.registerTool("post", {}, async () => {
      const response = await fetch(`${upstream.url}/limited`);
      return { content: [{ type: "text", text: await response.text() }] };
    });
    const result = await (await connect(server)).callTool({ name: "post", arguments: {} });
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "slack",
      retry_after_seconds: 12,
    });
  });
});

describe("the call scope where the runtime has no AsyncLocalStorage", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useScopeForTests("reset");
  });

  it("is looked up at run time: without node:async_hooks the scope is one call at a time", () => {
    vi.stubGlobal("process", { ...process, getBuiltinModule: undefined });
    useScopeForTests("reset");
    expect(callScope().mode).toBe("single-call");
  });

  it("upgrades a lone call, and never gives one call's throttle to another running beside it", async () => {
    useScopeForTests("single-call");
    install();
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    server.registerTool("get", {}, async (extra) => {
      const path = (extra as { _meta?: { path?: string } })._meta?.path ?? "ok";
      const response = await fetch(`${upstream.url}/${path}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { content: [{ type: "text", text: await response.text() }] };
    });
    const client = await connect(server);
    const call = (path: string) =>
      client.callTool({ name: "get", arguments: {}, _meta: { path } } as never);
    expect(parseRateLimitedResult(await call("limited"))).toBeDefined();
    const [ok, limited] = await Promise.all([call("ok"), call("limited")]);
    expect(parseRateLimitedResult(ok)).toBeUndefined();
    // Two calls at once: the note cannot be placed, so the throttled one keeps its own result.
    expect(parseRateLimitedResult(limited)).toBeUndefined();
  });
});
