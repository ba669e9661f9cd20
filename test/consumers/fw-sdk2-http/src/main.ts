// The 2.x SDK over HTTP, stateless: createMcpHandler builds an McpServer per request, mounted on
// @modelcontextprotocol/express (through @modelcontextprotocol/node's toNodeHandler) and on
// @modelcontextprotocol/hono. Tools are declared once with throttledTool, the callbacks
// unannotated. The tool tuples are built once, outside the per-request factory, so one cooldown
// serves every request; the default partition reads the request's authInfo (ctx.http.authInfo).
import { createMcpExpressApp } from "@modelcontextprotocol/express";
import { createMcpHonoApp } from "@modelcontextprotocol/hono";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { Request as ExpressRequest } from "express";
import { throttledFetch, throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, LIMIT, serveFetch, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });
const input = z.object({ query: z.string() });

const plain = throttledTool({ inputSchema: input }, async ({ query }, ctx) => {
  await search(`${upstream.url}/search?q=${query}`, { signal: ctx.mcpReq?.signal ?? null });
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

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: "fw-sdk2-http", version: "1.0.0" });
    server.registerTool("plain", ...plain);
    server.registerTool("typed", ...typed);
    server.registerTool("cooled", ...cooled);
    return server;
  },
  { legacy: "stateless" },
);

/** Stand-in for real verification: the bearer token is who the caller is. */
const authOf = (authorization: string | null | undefined) => {
  const token = authorization?.replace(/^Bearer /, "") ?? "";
  return { token, clientId: token, scopes: [] };
};
const expected = {
  tools: { plain: "structuredContent", typed: "meta" },
  cooldownTool: "cooled",
} as const;

// express
const express = createMcpExpressApp();
const node = toNodeHandler(handler);
express.all("/mcp", (req: ExpressRequest & { auth?: unknown }, res) => {
  req.auth = authOf(req.headers.authorization);
  void node(req, res, req.body);
});
const expressServer = express.listen(0, "127.0.0.1");
await new Promise((resolve) => expressServer.once("listening", resolve));
const { port } = expressServer.address() as { port: number };
try {
  await check("fw-sdk2-http", `http://127.0.0.1:${port}/mcp`, upstream, expected, {
    label: "express",
  });
} finally {
  expressServer.closeAllConnections();
  expressServer.close();
}

// hono: a fresh upstream count, the same cooldown store would remember alice: new callers.
upstream.requests.clear();
const hono = createMcpHonoApp();
hono.all("/mcp", (c) =>
  handler.fetch(c.req.raw, { authInfo: authOf(c.req.header("authorization")) }),
);
const http = await serveFetch((request) => hono.fetch(request));
try {
  await check("fw-sdk2-http", `${http.url}/mcp`, upstream, expected, {
    label: "hono",
    callers: ["key-carol", "key-dave"],
  });
} finally {
  await http.close();
  await upstream.close();
  await handler.close();
}
