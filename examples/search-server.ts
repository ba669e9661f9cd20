// An MCP server with one `search` tool that calls a rate-limited upstream API.
// The tool code is what a tool author writes: `throttledFetch` to call the upstream,
// `withUpstreamThrottle` around the callback. Served over Streamable HTTP on 127.0.0.1.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { throttledFetch, widenOutputShape, withUpstreamThrottle } from "../src/index.js";

export interface SearchServerOptions {
  /** Base URL of the upstream search API. */
  upstreamUrl: string;
  /** Headers the tool sends upstream (e.g. a credential). */
  upstreamHeaders?: Record<string, string>;
  /** An API key the tool sends in the query string, as some APIs want. */
  apiKey?: string;
}

const hitsShape = { query: z.string(), hits: z.array(z.string()) };

export function createSearchServer({
  upstreamUrl,
  upstreamHeaders = {},
  apiKey,
}: SearchServerOptions): McpServer {
  const server = new McpServer({ name: "search-example", version: "1.0.0" });
  const upstream = throttledFetch({ limit: "search_rate_limit" });

  async function search(query: string, signal: AbortSignal) {
    const url = new URL("/search", upstreamUrl);
    url.searchParams.set("q", query);
    if (apiKey !== undefined) url.searchParams.set("api_key", apiKey);
    const response = await upstream(url, { headers: upstreamHeaders, signal });
    if (!response.ok) throw new Error(`search failed with HTTP ${response.status}`);
    return (await response.json()) as { query: string; hits: string[] };
  }

  // A tool without an output schema: the error object goes in structuredContent.error.
  server.registerTool(
    "search",
    { description: "Searches the upstream index.", inputSchema: { query: z.string() } },
    withUpstreamThrottle(async ({ query }, extra) => {
      const found = await search(query, extra.signal);
      return { content: [{ type: "text", text: found.hits.join("\n") }] };
    }),
  );

  // A tool with an output schema: the error object moves to _meta, which the 1.x client does
  // not validate against the schema.
  server.registerTool(
    "search_structured",
    {
      description: "Searches, with structured output.",
      inputSchema: { query: z.string() },
      outputSchema: hitsShape,
    },
    withUpstreamThrottle(
      async ({ query }, extra) => {
        const found = await search(query, extra.signal);
        return {
          content: [{ type: "text", text: found.hits.join("\n") }],
          structuredContent: found,
        };
      },
      { outputSchema: hitsShape },
    ),
  );

  // The same, with the schema widened to admit { error }: the error stays in structuredContent.
  const widened = widenOutputShape(hitsShape);
  server.registerTool(
    "search_widened",
    {
      description: "Searches, with a widened output schema.",
      inputSchema: { query: z.string() },
      outputSchema: widened,
    },
    withUpstreamThrottle(
      async ({ query }, extra) => {
        const found = await search(query, extra.signal);
        return {
          content: [{ type: "text", text: found.hits.join("\n") }],
          structuredContent: found,
        };
      },
      { outputSchema: widened },
    ),
  );

  return server;
}

export interface RunningServer {
  url: string;
  http: Server;
  close(): Promise<void>;
}

/** Serves `createSearchServer` over stateless Streamable HTTP at `<url>/mcp`. */
export async function startSearchHttpServer(options: SearchServerOptions): Promise<RunningServer> {
  const http = createServer(async (req, res) => {
    if (req.url !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const server = createSearchServer(options);
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    http,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
