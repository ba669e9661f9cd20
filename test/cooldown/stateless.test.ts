// The SDK's stateless Streamable HTTP pattern builds a server, its tools and so their wrappers
// per request (`sessionIdGenerator: undefined`). `cooldown: true` must still remember a throttle
// from one request to the next: one default store and one partition key per process.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRateLimitedResult, throttledFetch, withUpstreamThrottle } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

let upstream: TestServer;
let mcp: Server;
let mcpUrl: URL;

/** One request's server, built the way the SDK's stateless example builds it. */
function serverForOneRequest(): McpServer {
  const server = new McpServer({ name: "stateless", version: "1.0.0" });
  // The tool's cooldown, for the doors it calls: partitioned by the credential the upstream
  // request carries, here the MCP caller's own token, passed on.
  server.registerTool(
    "search",
    {},
    withUpstreamThrottle(
      async (extra: { requestInfo?: { headers: Record<string, unknown> } }) => {
        const authorization = String(extra.requestInfo?.headers.authorization ?? "");
        const response = await throttledFetch({ limit: "search" })(`${upstream.url}/search`, {
          headers: { authorization },
        });
        return { content: [{ type: "text", text: await response.text() }] };
      },
      { limit: "search", cooldown: true },
    ),
  );
  // The fetch's cooldown, partitioned by the upstream request's `Authorization`.
  server.registerTool(
    "lookup",
    {},
    withUpstreamThrottle(async () => {
      const api = throttledFetch({ limit: "lookup", cooldown: true });
      const response = await api(`${upstream.url}/lookup`, {
        headers: { authorization: "Bearer upstream-key-of-the-server" },
      });
      return { content: [{ type: "text", text: await response.text() }] };
    }),
  );
  return server;
}

beforeAll(async () => {
  upstream = await startServer((_req, res) => {
    res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
    res.end('{"message":"slow down"}');
  });
  mcp = createServer(async (req, res) => {
    const server = serverForOneRequest();
    // The SDK's example passes `sessionIdGenerator: undefined`; under exactOptionalPropertyTypes
    // that is spelled by leaving it out (the same at run time: stateless).
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => mcp.listen(0, "127.0.0.1", resolve));
  mcpUrl = new URL(`http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  mcp.closeAllConnections();
  await new Promise<void>((resolve) => mcp.close(() => resolve()));
  await upstream.close();
});

async function connectedClient(authorization: string): Promise<Client> {
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, {
      requestInit: { headers: { authorization } },
    }),
  );
  return client;
}

describe("cooldown: true on a stateless Streamable HTTP server (a server per request)", () => {
  it.each(["search", "lookup"])(
    "%s: three calls with an Authorization header make one upstream request",
    async (tool) => {
      const client = await connectedClient("Bearer alice");
      try {
        const before = upstream.requests;
        const delays: (string | undefined)[] = [];
        for (let i = 0; i < 3; i += 1) {
          const result = await client.callTool({ name: tool, arguments: {} });
          delays.push(parseRateLimitedResult(result)?.limit);
        }
        expect(delays).toEqual([tool, tool, tool]);
        expect(upstream.requests - before).toBe(1);
      } finally {
        await client.close();
      }
    },
  );

  it("still keeps two callers apart when each one's own token goes to the upstream", async () => {
    const bob = await connectedClient("Bearer bob");
    try {
      const before = upstream.requests;
      await bob.callTool({ name: "search", arguments: {} });
      expect(upstream.requests - before).toBe(1);
    } finally {
      await bob.close();
    }
  });
});
