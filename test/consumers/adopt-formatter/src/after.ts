// A search server on the McpServer, each tool's catch calling one shared formatter that
// rethrows the error as a new Error with the tool's name in front.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { throttledFetch, throttleServer } from "mcp-upstream-throttle";
import { z } from "zod";

export function createSearchServer(baseUrl: string): McpServer {
  const server = throttleServer(new McpServer({ name: "neural-search", version: "1.0.0" }), { cooldown: true });
  const fetch = throttledFetch({ limit: "search" });

  async function request(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "test-key" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`Search API error (${response.status}): ${await response.text()}`);
    return response.json();
  }

  server.registerTool(
    "web_search",
    { description: "Search the web", inputSchema: { query: z.string() } },
    async ({ query }) => {
      try {
        const data = await request("/search", { query });
        return { content: [{ type: "text", text: JSON.stringify(data) }] };
      } catch (error) {
        return formatError(error, "web_search");
      }
    },
  );

  server.registerTool(
    "get_contents",
    {
      description: "Fetch page contents",
      inputSchema: { url: z.string() },
      outputSchema: { title: z.string(), text: z.string() },
    },
    async ({ url }) => {
      try {
        const data = (await request("/contents", { urls: [url] })) as { title: string; text: string };
        return { content: [{ type: "text", text: data.text }], structuredContent: data };
      } catch (error) {
        return formatError(error, "get_contents");
      }
    },
  );
  return server;
}

function formatError(error: unknown, tool: string): never {
  const message = error instanceof Error ? error.message : String(error);
  throw new Error(`${tool} failed: ${message}`);
}
