// mcp-handler 2.4 (Vercel): createMcpHandler, a Next.js-style route handler
// `(Request) => Response` over the 2.x McpServer, behind withMcpAuth. Tools declared once with
// throttledTool, the callbacks unannotated; the verified token reaches the callback as
// ctx.http.authInfo, which the default partition reads. Served with node:http (no Next.js).
import { createMcpHandler, withMcpAuth } from "mcp-handler";
import { throttledFetch, throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, LIMIT, serveFetch, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });
const input = z.object({ query: z.string() });

const plain = throttledTool({ inputSchema: input }, async ({ query }) => {
  await search(`${upstream.url}/search?q=${query}`);
  return { content: [{ type: "text", text: query }] };
});
const typed = throttledTool(
  { inputSchema: input, outputSchema: z.object({ hits: z.array(z.string()) }) },
  async ({ query }) => {
    await search(`${upstream.url}/search?q=${query}`);
    return { content: [], structuredContent: { hits: [query] } };
  },
);
const cooled = throttledTool(
  { inputSchema: input },
  async ({ query }) => {
    await search(`${upstream.url}/cooled?q=${query}`);
    return { content: [{ type: "text", text: query }] };
  },
  { limit: LIMIT, cooldown: true },
);

const route = createMcpHandler(
  (server) => {
    server.registerTool("plain", ...plain);
    server.registerTool("typed", ...typed);
    server.registerTool("cooled", ...cooled);
  },
  { serverInfo: { name: "fw-mcp-handler", version: "1.0.0" } },
);
// Stand-in for real verification: the bearer token is who the caller is.
const handler = withMcpAuth(route, (_request, token) =>
  token ? { token, clientId: token, scopes: [] } : undefined,
);
const http = await serveFetch(handler);
try {
  await check("fw-mcp-handler", `${http.url}/mcp`, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  await http.close();
  await upstream.close();
}
