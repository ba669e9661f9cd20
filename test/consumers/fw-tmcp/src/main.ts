// tmcp 1.20: tools declared with tool({ name, schema, outputSchema }, handler), the wrapped
// callback unannotated. A tmcp handler gets only its arguments; the caller is in
// `server.ctx.custom` (what the HTTP handler passed to `respond`), so the cooldown is
// partitioned by it with `cooldown.partition`.
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { McpServer } from "tmcp";
import { z } from "zod";
import { check, LIMIT, serveFetch, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });

const server = new McpServer(
  { name: "fw-tmcp", version: "1.0.0", description: "framework check" },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
).withContext<{ apiKey: string }>();

server.tool(
  { name: "plain", description: "no output schema", schema: z.object({ query: z.string() }) },
  withUpstreamThrottle(async ({ query }) => {
    await search(`${upstream.url}/search?q=${query}`);
    return { content: [{ type: "text" as const, text: query }] };
  }),
);

const hits = z.object({ hits: z.array(z.string()) });
server.tool(
  {
    name: "typed",
    description: "an output schema",
    schema: z.object({ query: z.string() }),
    outputSchema: hits,
  },
  withUpstreamThrottle(
    async ({ query }) => {
      await search(`${upstream.url}/search?q=${query}`);
      return { content: [], structuredContent: { hits: [query] } };
    },
    { outputSchema: hits },
  ),
);

server.tool(
  { name: "cooled", description: "a cooldown", schema: z.object({ query: z.string() }) },
  withUpstreamThrottle(
    async ({ query }) => {
      await search(`${upstream.url}/cooled?q=${query}`);
      return { content: [{ type: "text" as const, text: query }] };
    },
    { limit: LIMIT, cooldown: { partition: () => server.ctx.custom?.apiKey } },
  ),
);

const transport = new HttpTransport(server, { path: "/mcp" });
const http = await serveFetch(
  async (request) =>
    (await transport.respond(request, { apiKey: request.headers.get("x-api-key") ?? "" })) ??
    new Response(null, { status: 404 }),
);
try {
  await check("fw-tmcp", `${http.url}/mcp`, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  await http.close();
  await upstream.close();
}
