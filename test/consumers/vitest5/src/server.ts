// A zod 4 project on the 2.x split packages: the quick start's shape (a throttledFetch inside a
// withUpstreamThrottle tool) and a tool whose outputSchema is a widened zod 4 object.
import { McpServer } from "@modelcontextprotocol/server";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { widenOutputShape } from "mcp-upstream-throttle/zod";
import { z } from "zod";

export const LIMIT = "search_api";

export function createServer(upstreamUrl: string): McpServer {
  const search = throttledFetch({ limit: LIMIT });
  const find = async (query: string, signal: AbortSignal): Promise<string[]> => {
    const response = await search(`${upstreamUrl}/search?q=${encodeURIComponent(query)}`, { signal });
    if (!response.ok) throw new Error(`upstream answered HTTP ${response.status}`);
    return ((await response.json()) as { hits: string[] }).hits;
  };

  const server = new McpServer({ name: "zod4-sdk2", version: "1.0.0" });
  const input = z.object({ query: z.string() });
  server.registerTool(
    "search",
    { description: "Search", inputSchema: input },
    withUpstreamThrottle(async ({ query }, ctx) => ({
      content: [{ type: "text", text: (await find(query, ctx.mcpReq.signal)).join("\n") }],
    })),
  );

  const output = z.object(widenOutputShape({ hits: z.array(z.string()) }));
  server.registerTool(
    "search_structured",
    { description: "Search, structured", inputSchema: input, outputSchema: output },
    withUpstreamThrottle(
      async ({ query }, ctx) => {
        const hits = await find(query, ctx.mcpReq.signal);
        return { content: [{ type: "text", text: hits.join("\n") }], structuredContent: { hits } };
      },
      { outputSchema: output },
    ),
  );
  return server;
}
