// adopt-stateless: servers built or sessioned per request, each through a real SDK 1.x client
// over Streamable HTTP on 127.0.0.1, the client's list answered by another instance than its
// call. A low-level Server per request (the SDK's stateless example) and fastmcp stateless:
// every throttle reaches the client as the rate_limited result, placed where the tool's strict
// output schema lets the 1.x client accept it, and a stateless fastmcp with tools added before
// `throttleServer` refuses to start instead of serving them unadopted.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { FastMCP } from "fastmcp";
import { throttledFetch, throttleServer } from "mcp-upstream-throttle";
import { z } from "zod";
import { rateLimitedOf, startUpstream } from "./harness.js";

const upstream = await startUpstream((_req, res) => {
  res.writeHead(429, { "content-type": "application/json", "retry-after": "37" });
  res.end(JSON.stringify({ error: { message: "5 requests per second" } }));
});
const search = throttledFetch({ limit: "search" });
const META = "mcp-upstream-throttle/error";

function check(label: string, result: Record<string, unknown>, where: "meta" | "structuredContent") {
  const error = rateLimitedOf(result);
  assert.ok(error, `${label}: ${JSON.stringify(result)}`);
  assert.equal(result.isError, true);
  assert.equal(error.limit, "search");
  assert.equal(error.retry_after_seconds, 37);
  assert.equal(error.message, "5 requests per second");
  const meta = (result._meta as Record<string, unknown> | undefined)?.[META];
  assert.equal(where === "meta" ? meta !== undefined : result.structuredContent !== undefined, true, label);
  console.log(`adopt-stateless: ${label} -> rate_limited in ${where}`);
}

async function client(url: URL): Promise<Client> {
  const c = new Client({ name: "adopt-check", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(url));
  return c;
}

// --- a low-level Server per request ---------------------------------------------------------
function lowLevel(): Server {
  const server = throttleServer(new Server({ name: "search", version: "1.0.0" }, { capabilities: { tools: {} } }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "strict",
        inputSchema: { type: "object" },
        outputSchema: { type: "object", properties: { hits: { type: "array" } }, required: ["hits"] },
      },
      { name: "loose", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    try {
      const response = await search(`${upstream.url}/search`);
      return { content: [{ type: "text", text: await response.text() }], structuredContent: { hits: [] } };
    } catch (error) {
      return { content: [{ type: "text", text: `Error: ${String(error)}` }], isError: true };
    }
  });
  return server;
}

let instances = 0;
const http = createServer(async (req, res) => {
  instances += 1;
  const server = lowLevel();
  const transport = new StreamableHTTPServerTransport({});
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const lowLevelClient = await client(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
await lowLevelClient.listTools(); // the 1.x client now validates against the strict schema
const listedBy = instances;
check("low-level per request, strict", await lowLevelClient.callTool({ name: "strict", arguments: {} }), "meta");
assert.ok(instances > listedBy, "the call had an instance of its own");
check("low-level per request, loose", await lowLevelClient.callTool({ name: "loose", arguments: {} }), "structuredContent");
await lowLevelClient.close();
http.closeAllConnections();
http.close();

// --- fastmcp stateless ----------------------------------------------------------------------
const quiet = () => {};
const logger = { debug: quiet, error: quiet, info: quiet, log: quiet, warn: quiet };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const fast = throttleServer(new FastMCP({ name: "search", version: "1.0.0", logger }));
fast.addTool({
  name: "strict",
  outputSchema: z.object({ hits: z.array(z.string()) }),
  execute: async () => {
    try {
      const response = await search(`${upstream.url}/search`);
      return { content: [], structuredContent: { hits: [await response.text()] } };
    } catch {
      return { content: [], structuredContent: { hits: [] } };
    }
  },
});
const port = await freePort();
await fast.start({ transportType: "httpStream", httpStream: { port, host: "127.0.0.1", stateless: true } });
const fastClient = await client(new URL(`http://127.0.0.1:${port}/mcp`));
check("fastmcp stateless, before any list", await fastClient.callTool({ name: "strict", arguments: {} }), "meta");
await fastClient.listTools();
check("fastmcp stateless, after a list", await fastClient.callTool({ name: "strict", arguments: {} }), "meta");
await fastClient.close();
await fast.stop();

// A tool added before throttleServer cannot be reached on a stateless start: it refuses.
const early = new FastMCP({ name: "early", version: "1.0.0", logger });
early.addTool({ name: "early_search", execute: async () => "ok" });
throttleServer(early);
await assert.rejects(
  early.start({ transportType: "httpStream", httpStream: { port: await freePort(), host: "127.0.0.1", stateless: true } }),
  /"early_search"\. Call `throttleServer\(server\)` before `addTool`/,
);
console.log("adopt-stateless: fastmcp stateless with a tool added before throttleServer refuses to start");

await upstream.close();
process.exit(0);
