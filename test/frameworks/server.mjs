// The MCP server the framework projects call over Streamable HTTP on 127.0.0.1 (stateless): the
// tools `search` (one upstream call a second: the second is throttled for a second) and `lookup`
// (throttled for a minute), built with the packed library as a tool author would. `counts` says
// how many tools/call requests arrived and how many throttled results went back, so a fixture can
// prove that every throttle reached the host's layer and nothing went around it.

import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { z } from "zod";

const TOOLS = { search: "search_rate_limit", lookup: "lookup_rate_limit" };
const LIMITS = {
  "/search": { limit: 1, windowMs: 1000 },
  "/lookup": { limit: 0, windowMs: 60_000 },
};

export async function startServers() {
  const upstream = await startFakeUpstream({ limits: LIMITS });
  const counts = { toolCalls: 0, throttled: 0 };
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    if (body?.method === "tools/call") counts.toolCalls += 1;
    const server = new McpServer({ name: "frameworks", version: "1.0.0" });
    for (const [name, limit] of Object.entries(TOOLS)) {
      const api = throttledFetch({ limit });
      const handler = withUpstreamThrottle(async ({ query }, extra) => {
        const response = await api(`${upstream.url}/${name}?q=${encodeURIComponent(query)}`, {
          signal: extra.signal,
        });
        const { hits } = await response.json();
        return { content: [{ type: "text", text: hits.join("\n") }] };
      });
      server.registerTool(
        name,
        { description: `Calls /${name}.`, inputSchema: { query: z.string() } },
        async (args, extra) => {
          const result = await handler(args, extra);
          if (result.isError) counts.throttled += 1;
          return result;
        },
      );
    }
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    counts,
    async close() {
      await new Promise((resolve) => http.close(resolve));
      await upstream.close();
    },
  };
}
