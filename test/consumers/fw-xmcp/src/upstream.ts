// The upstream every tool calls, and the name of its limit (the same as the harness's LIMIT).
import { throttledFetch } from "mcp-upstream-throttle";

export const LIMIT = "search_rate_limit";
export const search = throttledFetch({ limit: LIMIT });
export const upstream = (path: string, query: string) =>
  `${process.env.UPSTREAM_URL}/${path}?q=${encodeURIComponent(query)}`;
