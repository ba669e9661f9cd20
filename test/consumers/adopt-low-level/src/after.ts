// A web search server in the style of many published ones: the SDK's low-level Server, one
// catch-all around every tool, and plain `fetch` at several sites.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { throttleGlobalFetch, throttleServer } from "mcp-upstream-throttle";

export function createSearchServer(baseUrl: string): Server {
  const server = throttleServer(new Server({ name: "web-search", version: "1.0.0" }, { capabilities: { tools: {} } }), { cooldown: true });
  throttleGlobalFetch({ limit: "brave_search" });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "web_search", inputSchema: { type: "object", properties: { query: { type: "string" } } } },
      { name: "local_search", inputSchema: { type: "object", properties: { query: { type: "string" } } } },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      const query = String(request.params.arguments?.query ?? "");
      if (request.params.name === "web_search") return text(await webSearch(baseUrl, query));
      if (request.params.name === "local_search") return text(await localSearch(baseUrl, query));
      throw new Error(`Unknown tool: ${request.params.name}`);
    } catch (error) {
      return {
        content: [{ type: "text", text: `Error: ${error instanceof Error ? error.message : String(error)}` }],
        isError: true,
      };
    }
  });
  return server;
}

function text(value: string) {
  return { content: [{ type: "text", text: value }] };
}

async function webSearch(baseUrl: string, query: string): Promise<string> {
  const response = await fetch(`${baseUrl}/res/v1/web/search?q=${encodeURIComponent(query)}`, {
    headers: { Accept: "application/json", "X-Subscription-Token": "test-key" },
  });
  if (!response.ok) {
    throw new Error(`API error: ${response.status} ${response.statusText}\n${await response.text()}`);
  }
  return JSON.stringify(await response.json());
}

async function localSearch(baseUrl: string, query: string): Promise<string> {
  const places = await fetch(`${baseUrl}/res/v1/local/search?q=${encodeURIComponent(query)}`);
  if (!places.ok) throw new Error(`API error: ${places.status}`);
  const { ids } = (await places.json()) as { ids: string[] };
  // Falls back to a web search when the local index has nothing: a second site, a second request.
  if (ids.length === 0) return webSearch(baseUrl, query);
  const details = await fetch(`${baseUrl}/res/v1/local/pois?ids=${ids.join(",")}`);
  if (!details.ok) throw new Error(`API error: ${details.status}`);
  return JSON.stringify(await details.json());
}
