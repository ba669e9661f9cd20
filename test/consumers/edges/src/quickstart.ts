import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { throttledFetch, throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";

const GITHUB = process.env.GITHUB_API_URL ?? "https://api.github.com";
const github = throttledFetch({ limit: "github_search" });

const server = new McpServer({ name: "repo-search", version: "1.0.0" });

// throttledTool takes the tool's config once and returns [config, callback] for registerTool:
// a throttle becomes the rate_limited result, placed where the config's outputSchema allows.
server.registerTool(
  "search_repositories",
  ...throttledTool(
    { description: "Search GitHub repositories", inputSchema: { query: z.string() } },
    async ({ query }, { signal }) => {
      const url = `${GITHUB}/search/repositories?q=${encodeURIComponent(query)}`;
      const response = await github(url, {
        signal,
        headers: { accept: "application/vnd.github+json" },
      });
      if (!response.ok) throw new Error(`GitHub answered HTTP ${response.status}`);
      const { items } = (await response.json()) as { items: { full_name: string }[] };
      return { content: [{ type: "text", text: items.map((item) => item.full_name).join("\n") }] };
    },
  ),
);

await server.connect(new StdioServerTransport());
