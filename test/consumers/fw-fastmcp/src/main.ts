// fastmcp 4: tools declared with addTool, the wrapped callback unannotated (its arguments come
// from `parameters`). fastmcp's context is not the SDK's: the caller is its `session` (what
// `authenticate` returned), so the cooldown is partitioned by it with `cooldown.partition`.
import type { IncomingMessage } from "node:http";
import { type Context, FastMCP } from "fastmcp";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { z } from "zod";
import { check, freePort, LIMIT, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });
type Session = { apiKey: string };

const server = new FastMCP<Session>({
  name: "fw-fastmcp",
  version: "1.0.0",
  authenticate: async (request: IncomingMessage) => ({
    apiKey: String(request.headers["x-api-key"] ?? ""),
  }),
});

server.addTool({
  name: "plain",
  parameters: z.object({ query: z.string() }),
  execute: withUpstreamThrottle(async ({ query }, { session }) => {
    await search(`${upstream.url}/search?q=${query}`, {
      headers: { "x-api-key": session?.apiKey ?? "" },
    });
    return { content: [{ type: "text" as const, text: query }] };
  }),
});

const hits = z.object({ hits: z.array(z.string()) });
server.addTool({
  name: "typed",
  parameters: z.object({ query: z.string() }),
  outputSchema: hits,
  // The same schema object given to the wrapper: the throttle goes to _meta, which fastmcp's
  // output validation does not look at.
  execute: withUpstreamThrottle(
    async ({ query }) => {
      await search(`${upstream.url}/search?q=${query}`);
      return { content: [], structuredContent: { hits: [query] } };
    },
    { outputSchema: hits },
  ),
});

server.addTool({
  name: "cooled",
  parameters: z.object({ query: z.string() }),
  execute: withUpstreamThrottle(
    async ({ query }) => {
      await search(`${upstream.url}/cooled?q=${query}`);
      return { content: [{ type: "text" as const, text: query }] };
    },
    {
      limit: LIMIT,
      cooldown: {
        partition: (_args: unknown, context: Context<Session>) => context.session?.apiKey,
      },
    },
  ),
});

const port = await freePort();
await server.start({ transportType: "httpStream", httpStream: { port, host: "127.0.0.1" } });
try {
  await check("fw-fastmcp", `http://127.0.0.1:${port}/mcp`, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  await server.stop();
  await upstream.close();
}
