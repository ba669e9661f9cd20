// @hono/mcp 0.3: the 1.x SDK McpServer behind hono, one stateful StreamableHTTPTransport. Tools
// declared once with throttledTool, the callbacks unannotated; the caller set as hono's `auth`
// variable reaches the callback as `extra.authInfo`, which the default partition reads.
import { StreamableHTTPTransport } from "@hono/mcp";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Hono } from "hono";
import { throttledFetch, throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, LIMIT, serveFetch, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });
const input = { query: z.string() };

const server = new McpServer({ name: "fw-hono-mcp", version: "1.0.0" });
server.registerTool(
  "plain",
  ...throttledTool({ inputSchema: input }, async ({ query }, { signal }) => {
    await search(`${upstream.url}/search?q=${query}`, { signal: signal ?? null });
    return { content: [{ type: "text", text: query }] };
  }),
);
server.registerTool(
  "typed",
  ...throttledTool(
    { inputSchema: input, outputSchema: { hits: z.array(z.string()) } },
    async ({ query }) => {
      await search(`${upstream.url}/search?q=${query}`);
      return { content: [], structuredContent: { hits: [query] } };
    },
  ),
);
server.registerTool(
  "cooled",
  ...throttledTool(
    { inputSchema: input },
    async ({ query }) => {
      await search(`${upstream.url}/cooled?q=${query}`);
      return { content: [{ type: "text", text: query }] };
    },
    { limit: LIMIT, cooldown: true },
  ),
);

// Stateless (no session id generator): one transport, connected once, serves every request.
const transport = new StreamableHTTPTransport();
await server.connect(transport);
const app = new Hono<{ Variables: { auth: { token: string; clientId: string; scopes: string[] } } }>();
app.all("/mcp", async (c) => {
  // Stand-in for real verification: the bearer token is who the caller is.
  const token = c.req.header("authorization")?.replace(/^Bearer /, "") ?? "";
  c.set("auth", { token, clientId: token, scopes: [] });
  return transport.handleRequest(c);
});
const http = await serveFetch(async (request) => (await app.fetch(request)) as Response);
try {
  await check("fw-hono-mcp", `${http.url}/mcp`, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  await http.close();
  await upstream.close();
}
