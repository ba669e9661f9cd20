// mcp-lite 0.10: tools declared with tool(name, { inputSchema, handler }), the wrapped callback
// unannotated. Its context carries the `authInfo` the HTTP handler was given, which the default
// cooldown partition reads (a keyed hash of the token): no option needed.
import { McpServer, StreamableHttpTransport } from "mcp-lite";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, LIMIT, serveFetch, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });

const server = new McpServer({
  name: "fw-mcp-lite",
  version: "1.0.0",
  schemaAdapter: (schema) => z.toJSONSchema(schema as z.ZodType),
});

server.tool("plain", {
  inputSchema: z.object({ query: z.string() }),
  handler: withUpstreamThrottle(async ({ query }) => {
    await search(`${upstream.url}/search?q=${query}`);
    return { content: [{ type: "text" as const, text: query }] };
  }),
});

const hits = z.object({ hits: z.array(z.string()) });
server.tool("typed", {
  inputSchema: z.object({ query: z.string() }),
  outputSchema: hits,
  handler: withUpstreamThrottle(
    async ({ query }) => {
      await search(`${upstream.url}/search?q=${query}`);
      return { content: [], structuredContent: { hits: [query] } };
    },
    { outputSchema: hits },
  ),
});

server.tool("cooled", {
  inputSchema: z.object({ query: z.string() }),
  handler: withUpstreamThrottle(
    async ({ query }) => {
      await search(`${upstream.url}/cooled?q=${query}`);
      return { content: [{ type: "text" as const, text: query }] };
    },
    { limit: LIMIT, cooldown: true },
  ),
});

const handle = new StreamableHttpTransport().bind(server);
const http = await serveFetch((request) => {
  // Stand-in for real verification: the bearer token is who the caller is.
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  return handle(request, { authInfo: { token, scopes: [] } });
});
try {
  await check("fw-mcp-lite", `${http.url}/mcp`, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  await http.close();
  await upstream.close();
}
