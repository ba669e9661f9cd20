import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpServer as McpServerV2, Server as ServerV2 } from "@modelcontextprotocol/server";
import axios from "axios";
import { FastMCP } from "fastmcp";
import { Agent, request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult, RATE_LIMITED_META_KEY } from "../../src/contract/result.js";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { throttleInterceptor } from "../../src/wrappers/interceptor/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/missing")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Not Found" }));
      return;
    }
    if (req.url?.startsWith("/limited")) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "37" });
      res.end(JSON.stringify({ error: { message: "5 requests per second" } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ hits: ["a"] }));
  });
});
afterAll(() => upstream.close());
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const search = throttledFetch({ limit: "search" });
const caughtAsText = async () => {
  try {
    const response = await search(`${upstream.url}/limited`);
    return { content: [{ type: "text" as const, text: await response.text() }] };
  } catch (error) {
    return { content: [{ type: "text" as const, text: `Error: ${String(error)}` }], isError: true };
  }
};

async function clientV1(server: { connect(t: unknown): Promise<void> }): Promise<ClientV1> {
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  await client.listTools(); // the 1.x client validates against the schemas it listed
  return client;
}

async function clientV2(server: McpServerV2): Promise<ClientV2> {
  const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV2({ name: "t", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(() => client.close());
  await client.listTools();
  return client;
}

const expected = {
  type: "rate_limited",
  limit: "search",
  retry_after_seconds: 37,
  message: "5 requests per second",
};

describe("throttleServer on the 1.x McpServer", () => {
  it("control: without it, a tool's own catch-all sends the throttle as Error text", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    server.registerTool("search", {}, caughtAsText);
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toBeUndefined();
  });

  it("turns a throttle the tool caught into the rate_limited result, tools registered before", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    server.registerTool("search", {}, caughtAsText);
    throttleServer(server);
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(result.isError).toBe(true);
    // The catch-all's text only restated the library's error: left out.
    expect(result.content).toStrictEqual([
      {
        type: "text",
        text: 'Rate limited by search. Retry after 37 seconds. The upstream said: "5 requests per second"',
      },
    ]);
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
  });

  it("puts the error in _meta for a tool whose outputSchema (given to registerTool only) forbids it", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
    server.registerTool("search", { outputSchema: { hits: z.array(z.string()) } }, async () => {
      try {
        await search(`${upstream.url}/limited`);
        return { content: [], structuredContent: { hits: [] } };
      } catch (error) {
        throw new Error(`search failed: ${(error as Error).message}`);
      }
    });
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[RATE_LIMITED_META_KEY]).toStrictEqual(expected);
  });

  it("recognises a vendor SDK error the tool throws (axios), through the McpServer's own catch", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }), {
      limit: "search",
    });
    server.tool("search", async () => {
      await axios.get(`${upstream.url}/limited`);
      return { content: [] };
    });
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "search",
      retry_after_seconds: 37,
    });
  });

  it("lets a retry that worked stand: a later success in the same call keeps the tool's result", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
    server.registerTool("search", {}, async () => {
      try {
        await search(`${upstream.url}/limited`);
      } catch {
        // falls back to a second endpoint, which answers
      }
      const response = await search(`${upstream.url}/ok`);
      return { content: [{ type: "text" as const, text: await response.text() }] };
    });
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(result).toStrictEqual({ content: [{ type: "text", text: '{"hits":["a"]}' }] });
  });

  it("keeps the success of a tool named in keepSuccesses that answers from its cache after a throttle", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }), {
      keepSuccesses: ["cached"],
    });
    const fromCache = async () => {
      try {
        const response = await search(`${upstream.url}/limited`);
        return { content: [{ type: "text" as const, text: await response.text() }] };
      } catch {
        return { content: [{ type: "text" as const, text: '{"hits":["cached"]}' }] };
      }
    };
    server.registerTool("cached", {}, fromCache);
    server.registerTool("other", {}, fromCache);
    const client = await clientV1(server);
    expect(await client.callTool({ name: "cached", arguments: {} })).toStrictEqual({
      content: [{ type: "text", text: '{"hits":["cached"]}' }],
    });
    // A tool not named is answered as before: its success could be the 429 body.
    expect(
      parseRateLimitedResult(await client.callTool({ name: "other", arguments: {} })),
    ).toMatchObject({ limit: "search", retry_after_seconds: 37 });
  });

  it("still replaces an error result under keepSuccesses: true", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }), {
      keepSuccesses: true,
    });
    server.registerTool("search", {}, caughtAsText);
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toMatchObject({
      limit: "search",
      retry_after_seconds: 37,
    });
  });

  it("refuses a keepSuccesses that is neither a boolean nor tool names, naming it", () => {
    for (const keepSuccesses of ["cached", [1], {}, null]) {
      expect(() =>
        throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }), {
          keepSuccesses: keepSuccesses as never,
        }),
      ).toThrow(/`keepSuccesses`/);
    }
  });

  it("leaves the throttle standing when a later answer in the call is no success (a 404 fallback)", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
    server.registerTool("search", {}, async () => {
      try {
        const response = await search(`${upstream.url}/limited?branch=main`);
        return { content: [{ type: "text" as const, text: await response.text() }] };
      } catch {
        // the server's own fallback: another branch, which does not exist
        const response = await search(`${upstream.url}/missing?branch=master`);
        return {
          content: [{ type: "text" as const, text: `Error: ${response.status}` }],
          isError: true,
        };
      }
    });
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
  });

  it("tells each call its own throttle through the interceptor, on a connection another call opened", async () => {
    const agent = new Agent({ connections: 1 }).compose(throttleInterceptor({ limit: "search" }));
    closers.push(() => agent.close());
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
    server.registerTool("search", { inputSchema: { path: z.string() } }, async ({ path }) => {
      try {
        const { body } = await request(`${upstream.url}/${path}`, { dispatcher: agent });
        return { content: [{ type: "text" as const, text: await body.text() }] };
      } catch (error) {
        return { content: [{ type: "text" as const, text: String(error) }], isError: true };
      }
    });
    const client = await clientV1(server);
    // The first call opens the one connection; the second, throttled, is answered on it.
    const first = await client.callTool({ name: "search", arguments: { path: "ok" } });
    const second = await client.callTool({ name: "search", arguments: { path: "limited" } });
    expect(first).toStrictEqual({ content: [{ type: "text", text: '{"hits":["a"]}' }] });
    expect(parseRateLimitedResult(second)).toStrictEqual(expected);
  });

  it("keeps the upstream's own words when a retry inside the call is answered by the cooldown", async () => {
    const cooled = throttledFetch({ limit: "cooled", cooldown: true });
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
    server.registerTool("search", {}, async () => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        try {
          await cooled(`${upstream.url}/limited?cooled`);
        } catch {
          // the server's own retry loop
        }
      }
      return { content: [{ type: "text" as const, text: "gave up" }], isError: true };
    });
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual({ ...expected, limit: "cooled" });
  });

  it("never mixes two concurrent calls: only the throttled one becomes rate_limited", async () => {
    const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
    server.registerTool("search", { inputSchema: { path: z.string() } }, async ({ path }) => {
      try {
        const response = await search(`${upstream.url}/${path}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { content: [{ type: "text" as const, text: await response.text() }] };
      } catch (error) {
        return { content: [{ type: "text" as const, text: String(error) }], isError: true };
      }
    });
    const client = await clientV1(server);
    const calls = Array.from({ length: 10 }, (_, i) =>
      client.callTool({ name: "search", arguments: { path: i % 2 ? "limited" : "ok" } }),
    );
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      expect(parseRateLimitedResult(result) !== undefined, `call ${i}`).toBe(i % 2 === 1);
    });
  });
});

describe("throttleServer on the low-level Server", () => {
  const thrower = async () => {
    await search(`${upstream.url}/limited`);
    return { content: [] };
  };
  const lowLevelV1 = () => {
    const server = new ServerV1({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    return server;
  };

  it("control: without it, a throttle thrown from tools/call makes the 1.x client throw -32603", async () => {
    const server = lowLevelV1();
    server.setRequestHandler(CallToolRequestSchema, thrower);
    const client = await clientV1(server);
    await expect(client.callTool({ name: "search", arguments: {} })).rejects.toMatchObject({
      code: -32603,
    });
  });

  it("sends a throttle thrown from the 1.x handler as the rate_limited result, handler set after", async () => {
    const server = throttleServer(lowLevelV1());
    server.setRequestHandler(CallToolRequestSchema, thrower);
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
  });

  it("does the same on the 2.x Server, handler set before", async () => {
    const server = new ServerV2({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/call", caughtAsText);
    throttleServer(server);
    const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: "t", version: "1.0.0" });
    await client.connect(clientSide);
    closers.push(() => client.close());
    const result = await client.callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
  });
});

describe("a server not adopted", () => {
  it("still tells the model the limit and the wait in the thrown error's own message", async () => {
    const server = new McpServerV1({ name: "t", version: "1.0.0" });
    server.registerTool("search", {}, async () => {
      await search(`${upstream.url}/limited`);
      return { content: [] };
    });
    const result = await (await clientV1(server)).callTool({ name: "search", arguments: {} });
    expect(result.content).toStrictEqual([
      { type: "text", text: 'Upstream rate limit "search" hit (HTTP 429); retry after 37 s' },
    ]);
  });
});

describe("throttleServer on the 2.x McpServer", () => {
  it("turns a caught throttle into the rate_limited result, tool registered after", async () => {
    const server = throttleServer(new McpServerV2({ name: "t", version: "1.0.0" }));
    server.registerTool("search", {}, caughtAsText);
    const result = await (await clientV2(server)).callTool({ name: "search", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
  });
});

describe("throttleServer on fastmcp", () => {
  it("upgrades tools added before and after it, through the session's tools/call", async () => {
    const server = new FastMCP({ name: "t", version: "1.0.0" });
    server.addTool({
      name: "before",
      execute: async () => (await caughtAsText()).content[0]?.text ?? "",
    });
    throttleServer(server);
    server.addTool({
      name: "after",
      execute: async () => {
        await axios.get(`${upstream.url}/limited`);
        return "never";
      },
    });
    const client = await clientV1(server as unknown as { connect(t: unknown): Promise<void> });
    const before = await client.callTool({ name: "before", arguments: {} });
    expect(parseRateLimitedResult(before)).toStrictEqual(expected);
    const after = await client.callTool({ name: "after", arguments: {} });
    expect(parseRateLimitedResult(after)).toMatchObject({ retry_after_seconds: 37 });
  });
});

describe("throttleServer on fastmcp with a strict output schema", () => {
  it("puts the error in _meta, where fastmcp's own schema check and the 1.x client accept it", async () => {
    const server = throttleServer(new FastMCP({ name: "t", version: "1.0.0" }));
    server.addTool({
      name: "search",
      outputSchema: z.object({ hits: z.array(z.string()) }),
      execute: async () => {
        await search(`${upstream.url}/limited`);
        return { content: [], structuredContent: { hits: [] } };
      },
    });
    const client = await clientV1(server as unknown as { connect(t: unknown): Promise<void> });
    const result = await client.callTool({ name: "search", arguments: {} });
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[RATE_LIMITED_META_KEY]).toStrictEqual(expected);
  });
});

describe("throttleServer's argument", () => {
  it.each([
    ["a plain object", {}],
    ["null", null],
    ["a function", () => {}],
  ])("rejects %s with a TypeError naming what it accepts", (_, value) => {
    expect(() => throttleServer(value as object)).toThrow(
      /`server` must be an McpServer \(@modelcontextprotocol\/sdk 1\.x or @modelcontextprotocol\/server 2\.x\), a low-level Server, or a FastMCP instance/,
    );
  });

  it.each([
    [
      "an McpServer whose protocol object has no handler map",
      { registerTool: () => {}, server: { setRequestHandler: () => {} } },
      /looks like an McpServer, but its protocol object \(`server\.server`\) has no `_requestHandlers` map/,
    ],
    [
      "a low-level Server with no handler map",
      { setRequestHandler: () => {}, connect: async () => {} },
      /looks like a low-level Server, but has no `_requestHandlers` map/,
    ],
  ])("refuses %s, naming what it cannot hook", (_, value, message) => {
    expect(() => throttleServer(value)).toThrow(message);
  });

  it.each([
    [
      "start",
      (server: FastMCP) =>
        server.start({
          transportType: "httpStream",
          httpStream: { port: 0, host: "127.0.0.1", stateless: true },
        }),
    ],
    [
      "connect",
      async (server: FastMCP) => {
        const [, serverSide] = InMemoryV1.createLinkedPair();
        await server.connect(serverSide);
      },
    ],
  ])(
    "refuses a FastMCP already running (after %s): the sessions it made cannot be reached",
    async (_, run) => {
      const server = new FastMCP({
        name: "t",
        version: "1.0.0",
        logger: { debug() {}, error() {}, info() {}, log() {}, warn() {} },
      });
      closers.push(() => server.stop());
      await run(server).catch(() => {});
      expect(server.serverState).toBe("running");
      expect(() => throttleServer(server)).toThrow(
        /a FastMCP that is already running: call `throttleServer` before `start` or `connect`/,
      );
    },
  );

  it("rejects a bad option by name", () => {
    expect(() =>
      throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }), {
        maxRetryAfterSeconds: -1,
      }),
    ).toThrow(/maxRetryAfterSeconds/);
  });
});
