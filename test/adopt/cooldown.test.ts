// One cooldown, one meaning, on every door and switch: keyed by the credential the upstream
// request carried (the MCP caller only where no upstream request is visible), so N calls
// inside the upstream's delay cost one upstream request, whichever way the server adopted us.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import axios from "axios";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { throttleAxios } from "../../src/adopt/axios.js";
import { throttleGlobalFetch } from "../../src/adopt/global-fetch.js";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult } from "../../src/contract/result.js";
import { MemoryCooldownStore } from "../../src/cooldown/memory.js";
import type { CooldownEntry } from "../../src/cooldown/store.js";
import { isUpstreamRateLimitedError } from "../../src/errors/upstream-rate-limited-error.js";
import { useScopeForTests } from "../../src/internal/call-scope.js";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { withUpstreamThrottle } from "../../src/wrappers/handler.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
/** Requests the upstream received, by path (without the query). */
const hits = new Map<string, number>();
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    const limited = path.startsWith("/limited") || (path.startsWith("/once") && count === 1);
    if (path.startsWith("/late")) {
      // A 429 that takes its time: it arrives after the call that asked is over.
      setTimeout(() => {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
        res.end(JSON.stringify({ message: "late" }));
      }, 60);
      return;
    }
    if (limited) {
      // The path that throttles once asks for a short wait, which a bounded retry waits out.
      const wait = path.startsWith("/once") ? { "retry-after-ms": "20" } : { "retry-after": "30" };
      res.writeHead(429, { "content-type": "application/json", ...wait });
      res.end(JSON.stringify({ message: "30 requests per minute" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, path }));
  });
});
afterAll(() => upstream.close());
beforeEach(() => hits.clear());
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const requestsTo = (path: string) => hits.get(path) ?? 0;
/** A store of its own per test: no throttle of one test is another's cooldown. */
const fresh = () => ({ store: new MemoryCooldownStore() });

async function connect(server: { connect(t: InMemoryTransport): Promise<void> }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client;
}

/** A low-level Server as many published ones are: plain fetch, a catch-all, a key of its own. */
function braveStyle(path: string, key: string): Server {
  const server = new Server({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "web_search", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    try {
      const response = await fetch(`${upstream.url}${path}?q=mcp`, {
        headers: { "x-subscription-token": key },
      });
      if (!response.ok) throw new Error(`API error: ${response.status}`);
      return { content: [{ type: "text", text: await response.text() }] };
    } catch (error) {
      return { content: [{ type: "text", text: `Error: ${String(error)}` }], isError: true };
    }
  });
  return server;
}

describe("throttleServer's cooldown", () => {
  it("answers three calls inside the delay with one upstream request (the process's fetch)", async () => {
    closers.push(throttleGlobalFetch({ limit: "brave" }));
    const server = throttleServer(braveStyle("/limited", "server-key"), { cooldown: fresh() });
    const client = await connect(server);
    const results = [];
    for (let i = 0; i < 3; i += 1)
      results.push(await client.callTool({ name: "web_search", arguments: {} }));
    expect(requestsTo("/limited")).toBe(1);
    const errors = results.map((result) => parseRateLimitedResult(result));
    expect(errors.map((error) => error?.limit)).toStrictEqual(["brave", "brave", "brave"]);
    for (const error of errors.slice(1)) {
      expect(error?.retry_after_seconds).toBeGreaterThan(0);
      expect(error?.retry_after_seconds).toBeLessThanOrEqual(30);
    }
  });

  it("is off by default: each call reaches the upstream", async () => {
    closers.push(throttleGlobalFetch({ limit: "brave" }));
    const client = await connect(throttleServer(braveStyle("/limited", "server-key")));
    await client.callTool({ name: "web_search", arguments: {} });
    await client.callTool({ name: "web_search", arguments: {} });
    expect(requestsTo("/limited")).toBe(2);
  });

  it("keeps two upstream keys apart: one key's throttle never holds the other's requests", async () => {
    closers.push(throttleGlobalFetch({ limit: "brave" }));
    const cooldown = fresh();
    const first = await connect(throttleServer(braveStyle("/limited", "key-one"), { cooldown }));
    const second = await connect(throttleServer(braveStyle("/limited", "key-two"), { cooldown }));
    await first.callTool({ name: "web_search", arguments: {} });
    await first.callTool({ name: "web_search", arguments: {} });
    await second.callTool({ name: "web_search", arguments: {} });
    expect(requestsTo("/limited")).toBe(2);
  });

  it("serves a throttledFetch without a cooldown of its own inside an adopted McpServer", async () => {
    const search = throttledFetch({ limit: "search" });
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }), {
      cooldown: fresh(),
    });
    server.registerTool("search", {}, async () => {
      try {
        const response = await search(`${upstream.url}/limited`);
        return { content: [{ type: "text", text: await response.text() }] };
      } catch (error) {
        return { content: [{ type: "text", text: String(error) }], isError: true };
      }
    });
    const client = await connect(server);
    await client.callTool({ name: "search", arguments: {} });
    const second = await client.callTool({ name: "search", arguments: {} });
    expect(requestsTo("/limited")).toBe(1);
    expect(parseRateLimitedResult(second)?.limit).toBe("search");
  });

  it("names the option when it is not a cooldown", () => {
    expect(() => throttleServer(braveStyle("/ok", "k"), { cooldown: 5 as never })).toThrow(
      /`cooldown`/,
    );
  });
});

describe("throttleGlobalFetch's cooldown, outside any MCP call", () => {
  it("answers a request inside the delay with a 429 of the time left, without sending it", async () => {
    closers.push(throttleGlobalFetch({ cooldown: fresh() }));
    const first = await fetch(`${upstream.url}/limited`);
    expect(first.status).toBe(429);
    expect(await first.json()).toStrictEqual({ message: "30 requests per minute" });
    const second = await fetch(`${upstream.url}/limited`);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    await second.body?.cancel();
    expect(requestsTo("/limited")).toBe(1);
  });

  it("throws the remembered throttle with throwOnThrottle", async () => {
    closers.push(throttleGlobalFetch({ cooldown: fresh(), throwOnThrottle: true }));
    await fetch(`${upstream.url}/limited`).catch(() => {});
    const error = await fetch(`${upstream.url}/limited`).catch((e: unknown) => e);
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(error).toMatchObject({ delaySource: "cooldown" });
    expect(requestsTo("/limited")).toBe(1);
  });

  it("answers with a response, never a throw, when the store answers late", async () => {
    const memory = new MemoryCooldownStore();
    const slow = {
      shared: false,
      get: async (key: string) => memory.get(key),
      set: async (key: string, entry: CooldownEntry, ttlMs: number) =>
        memory.set(key, entry, ttlMs),
    };
    closers.push(throttleGlobalFetch({ cooldown: { store: slow } }));
    await (await fetch(`${upstream.url}/limited`)).body?.cancel();
    const second = await fetch(`${upstream.url}/limited`);
    expect(second.status).toBe(429);
    await second.body?.cancel();
    expect(requestsTo("/limited")).toBe(1);
  });

  it("hands back the retry's success, not the 429 before it", async () => {
    closers.push(throttleGlobalFetch({ retry: { maxWaitMs: 1000 } }));
    const response = await fetch(`${upstream.url}/once-a`);
    expect(response.status).toBe(200);
    expect(await response.json()).toStrictEqual({ ok: true, path: "/once-a" });
    expect(requestsTo("/once-a")).toBe(2);
  });
});

describe("throttleGlobalFetch installed twice under a foreign wrapper", () => {
  it("never stacks: the first install, still inside the foreign wrapper, passes requests on", async () => {
    const events: string[] = [];
    const original = globalThis.fetch;
    const restoreFirst = throttleGlobalFetch({ onEvent: (e) => events.push(`first:${e.type}`) });
    const inner = globalThis.fetch;
    const foreign = (input: Parameters<typeof fetch>[0], init?: RequestInit) => inner(input, init);
    globalThis.fetch = foreign as typeof fetch;
    const restoreSecond = throttleGlobalFetch({
      onEvent: (e) => events.push(`second:${e.type}`),
    });
    await (await fetch(`${upstream.url}/limited`)).body?.cancel();
    expect(events).toStrictEqual(["second:throttle"]);
    restoreSecond();
    restoreFirst();
    await (await fetch(`${upstream.url}/limited`)).body?.cancel();
    expect(events).toStrictEqual(["second:throttle"]);
    globalThis.fetch = original;
  });
});

/** A Notion-style proxy: one catch-all that reports errors as data. */
function axiosProxy(api: { get: (path: string) => Promise<{ data: unknown }> }): McpServer {
  const server = new McpServer({ name: "proxy", version: "1.0.0" });
  server.registerTool("get", {}, async () => {
    try {
      const response = await api.get("/limited");
      return { content: [{ type: "text", text: JSON.stringify(response.data) }] };
    } catch (error) {
      return { content: [{ type: "text", text: `error: ${String(error)}` }] };
    }
  });
  return server;
}

describe("throttleAxios", () => {
  it("refuses a request inside the delay without sending it, with its cooldown", async () => {
    const api = throttleAxios(axios.create({ baseURL: upstream.url }), { cooldown: fresh() });
    await api.get("/limited").catch(() => {});
    const error = await api.get("/limited").catch((e: unknown) => e);
    expect(isUpstreamRateLimitedError(error)).toBe(true);
    expect(requestsTo("/limited")).toBe(1);
  });

  it("takes throttleServer's cooldown when it has none of its own", async () => {
    const api = throttleAxios(axios.create({ baseURL: upstream.url }), { limit: "notion" });
    const server = throttleServer(axiosProxy(api), { cooldown: fresh() });
    const client = await connect(server);
    await client.callTool({ name: "get", arguments: {} });
    const second = await client.callTool({ name: "get", arguments: {} });
    expect(requestsTo("/limited")).toBe(1);
    expect(parseRateLimitedResult(second)?.limit).toBe("notion");
  });

  it("with no instance, adopts the default export and every instance made after it", async () => {
    const undo = throttleAxios(undefined, { limit: "tavily" });
    closers.push(undo);
    // As an SDK does inside its own constructor, after the switch.
    const made = axios.create({ baseURL: upstream.url });
    const result = await (await connect(throttleServer(axiosProxy(made)))).callTool({
      name: "get",
      arguments: {},
    });
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "tavily",
      retry_after_seconds: 30,
    });
    const viaDefault = await (
      await connect(
        throttleServer(axiosProxy({ get: (path) => axios.get(`${upstream.url}${path}`) })),
      )
    ).callTool({ name: "get", arguments: {} });
    expect(parseRateLimitedResult(viaDefault)?.limit).toBe("tavily");
  });

  it("with no instance, is undone by the function it returns", async () => {
    throttleAxios(undefined, { limit: "tavily" })();
    const made = axios.create({ baseURL: upstream.url });
    const result = await (await connect(throttleServer(axiosProxy(made)))).callTool({
      name: "get",
      arguments: {},
    });
    expect(parseRateLimitedResult(result)).toBeUndefined();
  });
});

describe("throttleAxios where calls are told apart one at a time", () => {
  afterEach(() => useScopeForTests("reset"));

  it("tells the call that sent a request, not the one running when its 429 arrives", async () => {
    useScopeForTests("single-call");
    const api = throttleAxios(axios.create({ baseURL: upstream.url }));
    const server = throttleServer(new McpServer({ name: "t", version: "1.0.0" }));
    let background: Promise<unknown> | undefined;
    server.registerTool("fire", {}, async () => {
      // Sent now and not awaited: its answer comes after this call is over.
      background = api.get("/late").catch(() => {});
      return { content: [{ type: "text", text: "fired" }] };
    });
    server.registerTool("slow", {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { content: [{ type: "text", text: "done" }] };
    });
    const client = await connect(server);
    await client.callTool({ name: "fire", arguments: {} });
    const slow = await client.callTool({ name: "slow", arguments: {} });
    await background;
    expect(slow.content).toStrictEqual([{ type: "text", text: "done" }]);
  });
});

describe("withUpstreamThrottle's cooldown follows the upstream's credential", () => {
  it("holds every caller of a server-wide key after one throttle: one upstream request", async () => {
    const search = throttledFetch({ limit: "search" });
    const tool = withUpstreamThrottle(
      async (_args: { q: string }, _extra: { authInfo?: { token: string } }) => {
        const response = await search(`${upstream.url}/limited`, {
          headers: { authorization: "Bearer the-server-key" },
        });
        return { content: [{ type: "text" as const, text: await response.text() }] };
      },
      { limit: "search", cooldown: fresh() },
    );
    const alice = { authInfo: { token: "alice" } };
    const bob = { authInfo: { token: "bob" } };
    expect(parseRateLimitedResult(await tool({ q: "a" }, alice))?.limit).toBe("search");
    expect(parseRateLimitedResult(await tool({ q: "a" }, alice))?.limit).toBe("search");
    expect(parseRateLimitedResult(await tool({ q: "a" }, bob))?.limit).toBe("search");
    expect(requestsTo("/limited")).toBe(1);
  });

  it("keeps callers apart where each sends the upstream its own token", async () => {
    const search = throttledFetch({ limit: "search" });
    const tool = withUpstreamThrottle(
      async (_args: { q: string }, extra: { authInfo?: { token: string } }) => {
        const response = await search(`${upstream.url}/limited`, {
          headers: { authorization: `Bearer ${extra.authInfo?.token ?? ""}` },
        });
        return { content: [{ type: "text" as const, text: await response.text() }] };
      },
      { limit: "search", cooldown: fresh() },
    );
    await tool({ q: "a" }, { authInfo: { token: "alice" } });
    await tool({ q: "a" }, { authInfo: { token: "alice" } });
    await tool({ q: "a" }, { authInfo: { token: "bob" } });
    expect(requestsTo("/limited")).toBe(2);
  });

  it("keys a throttle no door saw (a vendor SDK's error) to the MCP caller", async () => {
    let runs = 0;
    const tool = withUpstreamThrottle(
      async (_args: { q: string }, _extra: { authInfo?: { token: string } }) => {
        runs += 1;
        throw Object.assign(new Error("rate limited"), {
          status: 429,
          headers: { "retry-after": "30" },
        });
      },
      { limit: "vendor", cooldown: fresh() },
    );
    await tool({ q: "a" }, { authInfo: { token: "alice" } });
    await tool({ q: "a" }, { authInfo: { token: "alice" } });
    expect(runs).toBe(1);
    await tool({ q: "a" }, { authInfo: { token: "bob" } });
    expect(runs).toBe(2);
  });
});

describe("a fetch kept before the switch, when the dispatcher changes", () => {
  it("is still seen after a later setGlobalDispatcher, inside an adopted call", async () => {
    const { Agent, getGlobalDispatcher, setGlobalDispatcher } = await import("undici");
    const kept = globalThis.fetch;
    closers.push(throttleGlobalFetch({ limit: "exa" }));
    const before = getGlobalDispatcher();
    const later = new Agent();
    setGlobalDispatcher(later);
    closers.push(async () => {
      setGlobalDispatcher(before);
      await later.close();
    });
    const server = throttleServer(braveStyleWith(kept));
    const result = await (await connect(server)).callTool({ name: "web_search", arguments: {} });
    expect(parseRateLimitedResult(result)?.limit).toBe("exa");
  });

  it("is not seen through a dispatcher given to the one request: compose throttleInterceptor there", async () => {
    const { Agent } = await import("undici");
    const kept = globalThis.fetch;
    closers.push(throttleGlobalFetch({ limit: "exa" }));
    const own = new Agent();
    closers.push(() => own.close());
    const server = throttleServer(
      braveStyleWith((input, init) =>
        kept(input, { ...init, dispatcher: own } as unknown as RequestInit),
      ),
    );
    const result = await (await connect(server)).callTool({ name: "web_search", arguments: {} });
    expect(parseRateLimitedResult(result)).toBeUndefined();
  });
});

/** The Brave-style server, its requests sent by `send` (a fetch an SDK kept, say). */
function braveStyleWith(send: typeof fetch): Server {
  const server = new Server({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "web_search", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    try {
      const response = await send(`${upstream.url}/limited`);
      if (!response.ok) throw new Error(`API error: ${response.status}`);
      return { content: [{ type: "text", text: await response.text() }] };
    } catch (error) {
      return { content: [{ type: "text", text: `Error: ${String(error)}` }], isError: true };
    }
  });
  return server;
}

describe("throttleGlobalFetch given a bad option", () => {
  it("throws naming it, and leaves the install in force as it was", async () => {
    const events: string[] = [];
    closers.push(throttleGlobalFetch({ onEvent: (event) => events.push(event.type) }));
    expect(() => throttleGlobalFetch({ cooldown: 5 as never })).toThrow(/`cooldown`/);
    await (await fetch(`${upstream.url}/limited`)).body?.cancel();
    expect(events).toStrictEqual(["throttle"]);
  });
});
