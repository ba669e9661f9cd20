// A cooldown per caller. xmcp's extra is 1.x-shaped (`authInfo` with an auth middleware,
// `requestInfo.headers`), which the default partition reads: no `cooldown.partition` needed.
import { throttledTool } from "mcp-upstream-throttle";
import { z } from "zod";
import { LIMIT, search, upstream } from "../upstream.js";

export const schema = { query: z.string() };
export const metadata = { name: "cooled", description: "a cooldown per caller" };

const [, cooled] = throttledTool(
  { inputSchema: schema },
  async ({ query }) => {
    await search(upstream("cooled", query));
    return { content: [{ type: "text", text: query }] };
  },
  { limit: LIMIT, cooldown: true },
);
export default cooled;
