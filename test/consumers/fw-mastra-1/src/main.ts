// Mastra 1 (@mastra/core 1.71 createTool, @mastra/mcp 2.0 MCPServer) as the server. First what the
// official clients get from Mastra's own MCPServer; then Mastra tools (their throttle thrown)
// served by the SDK's McpServer with throttledTool, where every check of the harness passes.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createTool } from "@mastra/core/tools";
import { MCPServer } from "@mastra/mcp";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { throttledFetch, throttledTool, withUpstreamThrottle } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, LIMIT, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });
const input = z.object({ query: z.string() });

// --- Mastra's MCPServer: what the official client receives --------------------------------------
// Mastra 1's MCPServer answers only MCP protocol 2026-07-28: the official clients (1.32.2 and
// 2.4.0 ask for 2025-11-25) are refused at initialize with -32022 "Unsupported protocol version",
// so no tool call, throttled or not, gets through it to them. Checked here, so a Mastra release
// that accepts them shows up as a failure to look at.
const wrapped = createTool({
  id: "wrapped",
  description: "the wrapped execute returns the rate_limited result",
  inputSchema: input,
  // Mastra 1 calls execute(inputData, context); the wrapper's second argument is the SDK's extra.
  execute: withUpstreamThrottle(async (args: { query: string }) => {
    await search(`${upstream.url}/search?q=${args.query}`);
    return { content: [{ type: "text" as const, text: args.query }] };
  }) as never,
});
const mastra = new MCPServer({
  id: "fw-mastra-1",
  name: "fw-mastra-1",
  version: "1.0.0",
  tools: { wrapped },
});
const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  await mastra.startHTTP({ url, httpPath: "/mcp", req, res });
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const mastraUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
for (const [label, connect] of [
  ["SDK 1.32.2", () => new ClientV1({ name: "c", version: "1" }).connect(new HttpV1(new URL(mastraUrl)))],
  ["client 2.4.0", () => new Client({ name: "c", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(mastraUrl)))],
] as const) {
  await assert.rejects(connect(), /Unsupported protocol version: 2025-11-25/, label);
}
await new Promise((resolve) => {
  http.closeAllConnections();
  http.close(resolve);
});
console.log(
  "fw-mastra-1: MCPServer refuses the official 1.32.2 and 2.4.0 clients (-32022, it answers only protocol 2026-07-28)",
);

// --- The same Mastra tool served by the SDK's McpServer ------------------------------------------
const searchTool = createTool({
  id: "search",
  description: "a Mastra tool whose throttle is thrown",
  inputSchema: input,
  execute: async (args) => {
    await search(`${upstream.url}/search?q=${args.query}`);
    return { hits: [args.query] };
  },
});
const cooledTool = createTool({
  id: "cooled",
  description: "the same, on the cooled path",
  inputSchema: input,
  execute: async (args) => {
    await search(`${upstream.url}/cooled?q=${args.query}`);
    return { hits: [args.query] };
  },
});
type MastraTool = { execute?: (args: { query: string }, context: never) => Promise<unknown> };
const run = (tool: MastraTool) => async (args: { query: string }) =>
  (await tool.execute?.(args, {} as never)) as { hits: string[] };
const hits = { hits: z.array(z.string()) };
const declared = {
  plain: throttledTool({ inputSchema: input.shape }, async (args) => ({
    content: [{ type: "text", text: JSON.stringify(await run(searchTool)(args)) }],
  })),
  typed: throttledTool({ inputSchema: input.shape, outputSchema: hits }, async (args) => ({
    content: [],
    structuredContent: await run(searchTool)(args),
  })),
  cooled: throttledTool(
    { inputSchema: input.shape },
    async (args) => ({
      content: [{ type: "text", text: JSON.stringify(await run(cooledTool)(args)) }],
    }),
    { limit: LIMIT, cooldown: true },
  ),
};
const sdkHttp = createServer(async (req, res) => {
  const server = new McpServer({ name: "fw-mastra-1-sdk", version: "1.0.0" });
  server.registerTool("plain", ...declared.plain);
  server.registerTool("typed", ...declared.typed);
  server.registerTool("cooled", ...declared.cooled);
  const transport = new StreamableHTTPServerTransport({});
  res.on("close", () => void Promise.all([transport.close(), server.close()]));
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
await new Promise<void>((resolve) => sdkHttp.listen(0, "127.0.0.1", resolve));
try {
  await check(
    "fw-mastra-1",
    `http://127.0.0.1:${(sdkHttp.address() as AddressInfo).port}/mcp`,
    upstream,
    { tools: { plain: "structuredContent", typed: "meta" }, cooldownTool: "cooled" },
    { label: "Mastra 1 tools on the SDK McpServer" },
  );
} finally {
  await new Promise((resolve) => {
    sdkHttp.closeAllConnections();
    sdkHttp.close(resolve);
  });
  await upstream.close();
}
