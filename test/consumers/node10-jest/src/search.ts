import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";

export const LIMIT = "search_api";

/** A tool callback as a tool author writes it, without any MCP SDK. */
export function searchTool(upstreamUrl: string) {
  const search = throttledFetch({ limit: LIMIT });
  return withUpstreamThrottle(async ({ query }: { query: string }) => {
    const response = await search(`${upstreamUrl}/search?q=${encodeURIComponent(query)}`);
    const { hits } = (await response.json()) as { hits: string[] };
    return { content: [{ type: "text" as const, text: hits.join("\n") }] };
  });
}
