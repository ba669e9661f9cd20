// Every way a server is served, through a real SDK 1.x client over real Streamable HTTP on
// 127.0.0.1: a server built per request (its `tools/list` answered by one instance, its
// `tools/call` by another), and fastmcp stateless and stateful. The 1.x client validates
// `structuredContent` against the schema it listed even on errors (-32602 when it does not
// match), so the error must be placed by the tool's schema without a list on the same instance.

import { createServer, type Server as HttpServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMcpHandler, McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { FastMCP } from "fastmcp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { throttleServer } from "../../src/adopt/throttle-server.js";
import { parseRateLimitedResult, RATE_LIMITED_META_KEY } from "../../src/contract/result.js";
import { throttledFetch } from "../../src/wrappers/fetch.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  upstream = await startServer((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": "37" });
    res.end(JSON.stringify({ error: { message: "5 requests per second" } }));
  });
});
afterAll(() => upstream.close());
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const expected = {
  type: "rate_limited",
  limit: "search",
  retry_after_seconds: 37,
  message: "5 requests per second",
};

const search = throttledFetch({ limit: "search" });
/** A tool body with its own catch-all, as published servers write them. */
const caughtAsText = async () => {
  try {
    const response = await search(`${upstream.url}/search`);
    return { content: [{ type: "text" as const, text: await response.text() }] };
  } catch (error) {
    return { content: [{ type: "text" as const, text: `Error: ${String(error)}` }], isError: true };
  }
};

const hitsJsonSchema = {
  type: "object" as const,
  properties: { hits: { type: "array", items: { type: "string" } } },
  required: ["hits"],
};

/** Where the result put the error object: the 1.x client accepted it either way. */
function placement(result: unknown): "structuredContent" | "meta" | undefined {
  const r = result as { structuredContent?: { error?: unknown }; _meta?: Record<string, unknown> };
  if (r.structuredContent?.error !== undefined) return "structuredContent";
  if (r._meta?.[RATE_LIMITED_META_KEY] !== undefined) return "meta";
  return undefined;
}

async function listen(server: HttpServer): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

/** The SDK 1.x stateless pattern: a new server and transport for every HTTP request. */
async function perRequest1x(
  build: () => { connect(t: StreamableHTTPServerTransport): Promise<void>; close(): Promise<void> },
): Promise<{ url: URL; instances: () => number }> {
  let instances = 0;
  const url = await listen(
    createServer(async (req, res) => {
      instances += 1;
      const server = build();
      const transport = new StreamableHTTPServerTransport({});
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    }),
  );
  return { url, instances: () => instances };
}

/** A fetch handler (the 2.x SDK's createMcpHandler) served on node:http. */
async function serveFetch(handler: (request: Request) => Promise<Response>): Promise<URL> {
  return listen(
    createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value);
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = await handler(
        new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method ?? "GET",
          headers,
          ...(body !== undefined ? { body } : {}),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    }),
  );
}

async function client1x(url: URL): Promise<Client> {
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url));
  closers.push(() => client.close());
  return client;
}

/** A low-level Server as the SDK's stateless example builds one, `tools/list` as given. */
type ListRequest = { params?: { cursor?: string | undefined } | undefined };

function lowLevel(list: (request: ListRequest) => unknown, adopt = true) {
  const server = new ServerV1({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
  if (adopt) throttleServer(server);
  server.setRequestHandler(ListToolsRequestSchema, async (request) => list(request) as never);
  server.setRequestHandler(CallToolRequestSchema, caughtAsText);
  return server;
}

const strictTools = {
  tools: [
    { name: "strict", inputSchema: { type: "object" as const }, outputSchema: hitsJsonSchema },
    { name: "loose", inputSchema: { type: "object" as const } },
  ],
};

describe("a low-level Server built per request (stateless Streamable HTTP)", () => {
  it("control: not adopted, the 1.x client that listed the strict schema gets no rate_limited result", async () => {
    const served = await perRequest1x(() => lowLevel(() => strictTools, false));
    const client = await client1x(served.url);
    await client.listTools();
    const result = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(result)).toBeUndefined();
  });

  it("places the error by the schema the client listed from another instance: _meta for a strict one", async () => {
    const served = await perRequest1x(() => lowLevel(() => strictTools));
    const client = await client1x(served.url);
    await client.listTools();
    const before = served.instances();
    const strict = await client.callTool({ name: "strict", arguments: {} });
    expect(served.instances()).toBeGreaterThan(before); // the call had an instance of its own
    expect(parseRateLimitedResult(strict)).toStrictEqual(expected);
    expect(placement(strict)).toBe("meta");
    const loose = await client.callTool({ name: "loose", arguments: {} });
    expect(parseRateLimitedResult(loose)).toStrictEqual(expected);
    expect(placement(loose)).toBe("structuredContent");
  });

  it("reads a tool from its own list's second page", async () => {
    const served = await perRequest1x(() =>
      lowLevel(({ params }) =>
        params?.cursor === "2"
          ? { tools: [strictTools.tools[0]] }
          : { tools: [strictTools.tools[1]], nextCursor: "2" },
      ),
    );
    const client = await client1x(served.url);
    await client.listTools();
    await client.listTools({ cursor: "2" });
    const result = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
    expect(placement(result)).toBe("meta");
  });

  it.each([
    [
      "a list handler that throws",
      () => {
        throw new Error("list is down");
      },
    ],
    ["a cursor that never ends", () => ({ tools: [], nextCursor: "again" })],
    [
      "pages past the bound",
      ({ params }: ListRequest) => ({
        tools: [],
        nextCursor: `${Number(params?.cursor ?? 0) + 1}`,
      }),
    ],
  ])("puts the error in _meta when its own list cannot say (%s)", async (_, list) => {
    const served = await perRequest1x(() => lowLevel(list));
    const client = await client1x(served.url);
    const result = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(result)).toStrictEqual(expected);
    expect(placement(result)).toBe("meta");
  });

  it("reads its own list once per instance, however many calls need it", async () => {
    let lists = 0;
    const server = lowLevel(() => {
      lists += 1;
      return strictTools;
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(clientSide);
    closers.push(() => client.close());
    for (const name of ["strict", "loose", "strict"]) {
      expect(parseRateLimitedResult(await client.callTool({ name, arguments: {} }))).toStrictEqual(
        expected,
      );
    }
    expect(lists).toBe(1);
  });

  it("keeps structuredContent for a tool its complete list gives no schema", async () => {
    const served = await perRequest1x(() => lowLevel(() => strictTools));
    const client = await client1x(served.url);
    const result = await client.callTool({ name: "loose", arguments: {} });
    expect(placement(result)).toBe("structuredContent");
  });
});

describe("an McpServer built per request", () => {
  const strictOutput = { hits: z.array(z.string()) };

  it("1.x: a strict tool listed by one instance and called on another gets the error in _meta", async () => {
    const served = await perRequest1x(() => {
      const server = throttleServer(new McpServerV1({ name: "t", version: "1.0.0" }));
      server.registerTool("strict", { outputSchema: strictOutput }, caughtAsText as never);
      server.registerTool("loose", {}, caughtAsText);
      return server;
    });
    const client = await client1x(served.url);
    await client.listTools();
    const strict = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(strict)).toStrictEqual(expected);
    expect(placement(strict)).toBe("meta");
    const loose = await client.callTool({ name: "loose", arguments: {} });
    expect(placement(loose)).toBe("structuredContent");
  });

  it("2.x (createMcpHandler, a server per request): the same, to the 1.x client", async () => {
    const handler = createMcpHandler(
      () => {
        const server = throttleServer(new McpServerV2({ name: "t", version: "1.0.0" }));
        server.registerTool(
          "strict",
          { outputSchema: z.object(strictOutput) },
          caughtAsText as never,
        );
        server.registerTool("loose", {}, caughtAsText);
        return server;
      },
      { legacy: "stateless" },
    );
    const url = await serveFetch((request) => handler.fetch(request));
    const client = await client1x(url);
    await client.listTools();
    const strict = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(strict)).toStrictEqual(expected);
    expect(placement(strict)).toBe("meta");
    const loose = await client.callTool({ name: "loose", arguments: {} });
    expect(placement(loose)).toBe("structuredContent");
  });
});

/** A port free on 127.0.0.1 now: fastmcp's `start` does not say which port 0 became. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const quiet = () => {};
const silent = { debug: quiet, error: quiet, info: quiet, log: quiet, warn: quiet };

function fastMcpTools(server: FastMCP) {
  server.addTool({
    name: "strict",
    outputSchema: z.object({ hits: z.array(z.string()) }),
    execute: async () => {
      await search(`${upstream.url}/search`);
      return { content: [], structuredContent: { hits: [] } };
    },
  });
  server.addTool({
    name: "loose",
    execute: async () => (await caughtAsText()).content[0]?.text ?? "",
  });
}

async function startFastMcp(server: FastMCP, stateless: boolean): Promise<URL> {
  const port = await freePort();
  await server.start({
    transportType: "httpStream",
    httpStream: { port, host: "127.0.0.1", stateless },
  });
  closers.push(() => server.stop());
  return new URL(`http://127.0.0.1:${port}/mcp`);
}

describe.each([
  ["stateless", true],
  ["stateful", false],
])("fastmcp served %s over Streamable HTTP", (_, stateless) => {
  it("makes the first call of a session, before any list, the rate_limited result placed by the tool's schema", async () => {
    const server = throttleServer(new FastMCP({ name: "t", version: "1.0.0", logger: silent }));
    fastMcpTools(server);
    const client = await client1x(await startFastMcp(server, stateless));
    const strict = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(strict)).toStrictEqual(expected);
    expect(placement(strict)).toBe("meta");
    const loose = await client.callTool({ name: "loose", arguments: {} });
    expect(parseRateLimitedResult(loose)).toStrictEqual(expected);
    expect(placement(loose)).toBe("structuredContent");
  });

  it("turns every one of several throttles into rate_limited, after a list too", async () => {
    const server = throttleServer(new FastMCP({ name: "t", version: "1.0.0", logger: silent }));
    fastMcpTools(server);
    const client = await client1x(await startFastMcp(server, stateless));
    await client.listTools();
    const results = [];
    for (let i = 0; i < 4; i += 1) {
      results.push(
        parseRateLimitedResult(await client.callTool({ name: "strict", arguments: {} })),
      );
    }
    expect(results).toStrictEqual([expected, expected, expected, expected]);
  });
});

describe("fastmcp with tools added before throttleServer", () => {
  it("refuses a stateless start, naming the tools it cannot reach", async () => {
    const server = new FastMCP({ name: "t", version: "1.0.0", logger: silent });
    fastMcpTools(server);
    throttleServer(server);
    server.addTool({ name: "later", execute: async () => "ok" });
    const port = await freePort();
    await expect(
      server.start({
        transportType: "httpStream",
        httpStream: { port, host: "127.0.0.1", stateless: true },
      }),
    ).rejects.toThrow(
      /cannot reach tools added to a FastMCP before it when the server is served statelessly.*"strict", "loose"\. Call `throttleServer\(server\)` before `addTool`/,
    );
    expect(server.sessions).toStrictEqual([]);
  });

  it("starts statelessly when every tool was added after it", async () => {
    const server = throttleServer(new FastMCP({ name: "t", version: "1.0.0", logger: silent }));
    server.addTools([{ name: "only", execute: async () => "ok" }]);
    const client = await client1x(await startFastMcp(server, true));
    expect(await client.callTool({ name: "only", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "ok" }],
    });
  });

  it("stateful: adopts them on the session fastmcp announces, its first call included", async () => {
    const server = new FastMCP({ name: "t", version: "1.0.0", logger: silent });
    fastMcpTools(server);
    throttleServer(server);
    const client = await client1x(await startFastMcp(server, false));
    const first = await client.callTool({ name: "strict", arguments: {} });
    expect(parseRateLimitedResult(first)).toStrictEqual(expected);
    expect(placement(first)).toBe("meta");
  });
});
