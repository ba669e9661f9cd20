// An xmcp tool is a file: `schema` (a raw shape), `metadata`, and the default export, the
// callback. throttledTool types the callback from the schema (no annotation, unlike xmcp's own
// `InferSchema<typeof schema>`) and places the throttle by the (absent) output schema.
import { throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";
import { search, upstream } from "../upstream.js";

export const schema = { query: z.string() };
export const metadata = { name: "plain", description: "no output schema" };

const [, plain] = throttledTool({ inputSchema: schema }, async ({ query }, { signal }) => {
  await search(upstream("search", query), { signal });
  return { content: [{ type: "text", text: query }] };
});
export default plain;
