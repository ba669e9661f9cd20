// zod 4.1.12 exactly, with SDK 1.x: `z.object(widenOutputShape(shape))` typechecks (it once
// failed with TS2589 and TS2740), and the output schema a client lists keeps its constraints.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
import { widenOutputShape } from "mcp-upstream-throttle/zod";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { z } from "zod";

const require = createRequire(import.meta.url);
assert.equal((require("zod/package.json") as { version: string }).version, "4.1.12");

const LIMIT = "search_api";
const shape = { hits: z.array(z.string()), total: z.number().int().nonnegative() };
const Output = z.object(widenOutputShape(shape));
type Output = z.infer<typeof Output>;
// Every original field is optional, and `error` is the design's error object.
const onlyError: Output = { error: { type: "rate_limited", limit: LIMIT, message: "m", retry_after_seconds: 1 } };
const onlyHits: Output = { hits: ["a"], total: 1 };
assert.ok(Output.safeParse(onlyError).success && Output.safeParse(onlyHits).success);
assert.equal(Output.safeParse({ error: { type: "rate_limited", limit: LIMIT, message: "m", retry_after_seconds: 1.5 } }).success, false);

const upstream = await startFakeUpstream({
  limits: { "/search": { limit: 0, windowMs: 60_000 } },
  now: () => Date.parse("2026-11-29T12:00:00Z"),
});
const search = throttledFetch({ limit: LIMIT });
const server = new McpServer({ name: "zod41", version: "1.0.0" });
server.registerTool(
  "search",
  { inputSchema: { query: z.string() }, outputSchema: Output },
  withUpstreamThrottle(
    async ({ query }, { signal }) => {
      const response = await search(`${upstream.url}/search?q=${encodeURIComponent(query)}`, { signal });
      const { hits } = (await response.json()) as { hits: string[] };
      return { content: [{ type: "text", text: hits.join("\n") }], structuredContent: { hits, total: hits.length } };
    },
    { outputSchema: Output },
  ),
);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "zod41-client", version: "1.0.0" });
await client.connect(clientSide);

const { tools } = await client.listTools();
const listed = tools[0]?.outputSchema as
  | { properties: Record<string, { properties?: Record<string, Record<string, unknown>> } & Record<string, unknown>> }
  | undefined;
const retryAfter = listed?.properties.error?.properties?.retry_after_seconds;
assert.equal(retryAfter?.type, "integer", JSON.stringify(listed));
assert.equal(retryAfter?.minimum, 0, JSON.stringify(listed));
assert.equal(listed?.properties.total?.type, "integer", JSON.stringify(listed));

const result = await client.callTool({ name: "search", arguments: { query: "mcp" } });
assert.deepEqual(result.structuredContent, {
  error: {
    type: "rate_limited",
    retry_after_seconds: 60,
    limit: LIMIT,
    message: "This endpoint has been requested too many times. Try again later.",
  },
});
assert.equal(result.isError, true);
await client.close();
await upstream.close();

console.log("zod41: z.object(widenOutputShape(shape)) with zod 4.1.12, constraints listed, throttle in structuredContent: ok");
