// The Worker: Cloudflare agents' createMcpHandler with an SDK 2.x factory (a server per
// request), tools declared once at module level with throttledTool, so one cooldown serves the
// isolate. The caller's bearer token is passed as authInfo, which the default partition reads.
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp";
import { throttledFetch, throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";

const LIMIT = "search_rate_limit";
const search = throttledFetch({ limit: LIMIT });
const input = z.object({ query: z.string() });
let upstream = "";

const plain = throttledTool({ inputSchema: input }, async ({ query }) => {
  await search(`${upstream}/search?q=${query}`);
  return { content: [{ type: "text", text: query }] };
});
const typed = throttledTool(
  { inputSchema: input, outputSchema: z.object({ hits: z.array(z.string()) }) },
  async ({ query }) => {
    await search(`${upstream}/search?q=${query}`);
    return { content: [], structuredContent: { hits: [query] } };
  },
);
const cooled = throttledTool(
  { inputSchema: input },
  async ({ query }) => {
    await search(`${upstream}/cooled?q=${query}`);
    return { content: [{ type: "text", text: query }] };
  },
  { limit: LIMIT, cooldown: true },
);

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: "fw-agents", version: "1.0.0" });
    server.registerTool("plain", ...plain);
    server.registerTool("typed", ...typed);
    server.registerTool("cooled", ...cooled);
    return server;
  },
  { route: "/mcp", legacy: "stateless" },
);

export default {
  fetch(request: Request, env: { UPSTREAM: string }): Promise<Response> {
    upstream = env.UPSTREAM;
    // Stand-in for real verification: the bearer token is who the caller is.
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    return handler.fetch(request, { authInfo: { token, clientId: token, scopes: [] } });
  },
};
