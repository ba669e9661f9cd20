// With an output schema (xmcp's `outputSchema` export): the same shape goes to throttledTool,
// which puts the error object in _meta, since the strict success schema rejects it.
import { throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";
import { search, upstream } from "../upstream.js";

export const schema = { query: z.string() };
export const outputSchema = { hits: z.array(z.string()) };
export const metadata = { name: "typed", description: "a strict output schema" };

const [, typed] = throttledTool({ inputSchema: schema, outputSchema }, async ({ query }) => {
  await search(upstream("search", query));
  return { content: [], structuredContent: { hits: [query] } };
});
export default typed;
