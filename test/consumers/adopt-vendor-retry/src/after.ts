// A scraping server on a vendor SDK, with its own retry loop that retries anything that says
// "rate limit", three times.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { throttledFetch, throttleServer } from "mcp-upstream-throttle";
import { z } from "zod";
import { CrawlClient } from "./vendor.js";

export function createCrawlServer(apiUrl: string): McpServer {
  const server = throttleServer(new McpServer({ name: "crawl", version: "1.0.0" }), { cooldown: true });
  const client = new CrawlClient({ apiKey: "fc-test-key", apiUrl, fetch: throttledFetch({ limit: "crawl", cooldown: true }) });

  server.registerTool("scrape", { inputSchema: { url: z.string() } }, async ({ url }) => {
    try {
      const page = await withRetry(() => client.scrape(url));
      return { content: [{ type: "text", text: page.markdown }] };
    } catch (error) {
      return { content: [{ type: "text", text: `Error: ${(error as Error).message}` }], isError: true };
    }
  });
  return server;
}

async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const retryable = /rate limit/i.test((error as Error).message);
      if (!retryable || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
