// A project whose schemas are zod/mini: widenOutputShape takes a mini shape, the result goes
// through registerTool (SDK 1.x) and a real client, and the error keeps its constraints.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { widenOutputShape } from "mcp-upstream-throttle/zod";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import * as z from "zod/mini";

const LIMIT = "search_api";
const output = widenOutputShape({ hits: z.array(z.string()) });
// The widened shape is still a mini shape: it builds a mini object, whose output type has
// an optional `hits` and an optional `error`.
const Output = z.object(output);
const parsed: z.infer<typeof Output> = Output.parse({ hits: ["a"] });
assert.deepEqual(parsed, { hits: ["a"] });

const upstream = await startFakeUpstream({
  limits: { "/search": { limit: 1, windowMs: 60_000 } },
  now: () => Date.parse("2026-11-29T12:00:00Z"),
});
const search = throttledFetch({ limit: LIMIT });
const server = new McpServer({ name: "zod-mini", version: "1.0.0" });
server.registerTool(
  "search",
  { inputSchema: { query: z.string() }, outputSchema: output },
  withUpstreamThrottle(
    async ({ query }, { signal }) => {
      const response = await search(`${upstream.url}/search?q=${encodeURIComponent(query)}`, { signal });
      const { hits } = (await response.json()) as { hits: string[] };
      return { content: [{ type: "text", text: hits.join("\n") }], structuredContent: { hits } };
    },
    { outputSchema: output },
  ),
);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "zod-mini-client", version: "1.0.0" });
await client.connect(clientSide);

const { tools } = await client.listTools();
const listed = tools[0]?.outputSchema as
  | { properties: { error?: { properties?: Record<string, Record<string, unknown>> } } }
  | undefined;
const retryAfter = listed?.properties.error?.properties?.retry_after_seconds;
assert.equal(retryAfter?.type, "integer", JSON.stringify(listed));
assert.equal(retryAfter?.minimum, 0, JSON.stringify(listed));

const ok = await client.callTool({ name: "search", arguments: { query: "mcp" } });
assert.deepEqual(ok.structuredContent, { hits: ["mcp — first result", "mcp — second result"] });
const throttled = await client.callTool({ name: "search", arguments: { query: "mcp" } });
assert.equal(throttled.isError, true);
assert.deepEqual(throttled.structuredContent, {
  error: {
    type: "rate_limited",
    retry_after_seconds: 60,
    limit: LIMIT,
    message: "This endpoint has been requested too many times. Try again later.",
  },
});
await client.close();
await upstream.close();

console.log("zod-mini: widenOutputShape on a zod/mini shape through registerTool and a 1.x Client: ok");
