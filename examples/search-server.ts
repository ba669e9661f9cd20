// An MCP server with one `search` tool that calls a rate-limited upstream API.
// The tool code is what a tool author writes: `throttledFetch` to call the upstream,
// `withUpstreamThrottle` around the callback. Served over Streamable HTTP on 127.0.0.1.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { aggregateTool, fanOutTool, throttledFetch, withUpstreamThrottle } from "../src/index.js";
import { widenOutputShape } from "../src/zod.js";

export interface SearchServerOptions {
  /** Base URL of the upstream search API. */
  upstreamUrl: string;
  /** Headers the tool sends upstream (e.g. a credential). */
  upstreamHeaders?: Record<string, string>;
  /** An API key the tool sends in the query string, as some APIs want. */
  apiKey?: string;
}

const hitsShape = { query: z.string(), hits: z.array(z.string()) };

type Found = { query: string; hits: string[] };
type Extra = { signal: AbortSignal };

export function createSearchServer({
  upstreamUrl,
  upstreamHeaders = {},
  apiKey,
}: SearchServerOptions): McpServer {
  const server = new McpServer({ name: "search-example", version: "1.0.0" });
  // One throttledFetch per upstream limit: the name is what the model reads.
  const searchApi = throttledFetch({ limit: "search_rate_limit" });
  const semanticApi = throttledFetch({ limit: "semantic_search_rate_limit" });

  async function get(
    api: typeof fetch,
    path: string,
    query: string,
    signal: AbortSignal,
  ): Promise<Found> {
    const url = new URL(path, upstreamUrl);
    url.searchParams.set("q", query);
    if (apiKey !== undefined) url.searchParams.set("api_key", apiKey);
    const response = await api(url, { headers: upstreamHeaders, signal });
    if (!response.ok) throw new Error(`${path} failed with HTTP ${response.status}`);
    return (await response.json()) as Found;
  }

  const text = (found: Found) => ({ type: "text" as const, text: found.hits.join("\n") });

  // Tools without an output schema: the error object goes in structuredContent.error.
  const search = withUpstreamThrottle(
    async ({ query }: { query: string }, extra: Extra): Promise<CallToolResult> => ({
      content: [text(await get(searchApi, "/search", query, extra.signal))],
    }),
  );
  const semanticSearch = withUpstreamThrottle(
    async ({ query }: { query: string }, extra: Extra): Promise<CallToolResult> => ({
      content: [text(await get(semanticApi, "/semantic", query, extra.signal))],
    }),
  );
  server.registerTool(
    "search",
    { description: "Keyword search.", inputSchema: { query: z.string() } },
    search,
  );
  server.registerTool(
    "semantic_search",
    { description: "Semantic search.", inputSchema: { query: z.string() } },
    semanticSearch,
  );

  // An aggregated tool that routes to one sub-tool. A throttled sub-result passes through
  // verbatim; the decoration (operation metadata) is for successes only.
  server.registerTool(
    "search_service",
    {
      description: "Searches by keyword or meaning.",
      inputSchema: { query: z.string(), mode: z.enum(["keyword", "semantic"]) },
    },
    aggregateTool({
      tools: { search, semantic_search: semanticSearch },
      select: ({ mode }) => (mode === "keyword" ? "search" : "semantic_search"),
      decorate: (result, { tool }) => ({ ...result, _meta: { "search-example/operation": tool } }),
    }),
  );

  // A fan-out tool: both searches at once; a throttle in either is the answer (the longest).
  server.registerTool(
    "search_everywhere",
    { description: "Both searches at once, merged.", inputSchema: { query: z.string() } },
    fanOutTool({
      parts: ({ query }: { query: string }) => ({
        search: (signal: AbortSignal) => search({ query }, { signal }),
        semantic_search: (signal: AbortSignal) => semanticSearch({ query }, { signal }),
      }),
      merge: (results) => ({
        content: Object.values(results).flatMap(
          (result): CallToolResult["content"] => result.content,
        ),
      }),
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
        const found = await get(searchApi, "/search", query, extra.signal);
        return { content: [text(found)], structuredContent: found };
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
        const found = await get(searchApi, "/search", query, extra.signal);
        return { content: [text(found)], structuredContent: found };
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
