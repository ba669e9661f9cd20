// A zod 3 project on SDK 1.x: one tool without an outputSchema (the quick start's shape), one
// whose outputSchema is widened with zod 3's own `z`, both calling the upstream through
// throttledFetch.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
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

  const server = new McpServer({ name: "zod3-sdk1", version: "1.0.0" });
  server.registerTool(
    "search",
    { description: "Search", inputSchema: { query: z.string() } },
    withUpstreamThrottle(async ({ query }, { signal }) => ({
      content: [{ type: "text", text: (await find(query, signal)).join("\n") }],
    })),
  );

  const output = widenOutputShape({ hits: z.array(z.string()) });
  server.registerTool(
    "search_structured",
    { description: "Search, structured", inputSchema: { query: z.string() }, outputSchema: output },
    withUpstreamThrottle(
      async ({ query }, { signal }) => {
        const hits = await find(query, signal);
        return { content: [{ type: "text", text: hits.join("\n") }], structuredContent: { hits } };
      },
      { outputSchema: output },
    ),
  );
  return server;
}
