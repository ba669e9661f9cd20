// Runs the package as this project would: both tools through a real 2.x Client in memory, with a
// rate-limited upstream on 127.0.0.1; the zod 4 schemas of the main entry inside a zod 4 object.
import assert from "node:assert/strict";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { parseRateLimitedResult } from "mcp-upstream-throttle";
import { RateLimitedErrorSchema } from "mcp-upstream-throttle/zod";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { z } from "zod";
import { createServer, LIMIT } from "./server.js";

const FROZEN = Date.parse("2026-11-29T12:00:00Z");
const ERROR = {
  type: "rate_limited",
  retry_after_seconds: 60,
  limit: LIMIT,
  message: "This endpoint has been requested too many times. Try again later.",
};
// The sentence, then the upstream's own words, quoted and labelled as its own.
const TEXT = `Rate limited by ${LIMIT}. Retry after 60 seconds. The upstream said: ${JSON.stringify(ERROR.message)}`;

const upstream = await startFakeUpstream({ limits: { "/search": { limit: 1, windowMs: 60_000 } }, now: () => FROZEN });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createServer(upstream.url).connect(serverSide);
const client = new Client({ name: "zod4-sdk2-client", version: "1.0.0" });
await client.connect(clientSide);

const { tools } = await client.listTools();
const listed = tools.find((tool) => tool.name === "search_structured")?.outputSchema as
  | { properties: { error: { properties: Record<string, Record<string, unknown>> } } }
  | undefined;
assert.ok(listed, "search_structured lists an outputSchema");
const retryAfter = listed.properties.error.properties.retry_after_seconds;
assert.equal(retryAfter?.type, "integer", JSON.stringify(retryAfter));
assert.equal(retryAfter?.minimum, 0, JSON.stringify(retryAfter));

// The quick start's shape: the upstream's one request a window, then its throttle.
const found = await client.callTool({ name: "search", arguments: { query: "mcp" } });
assert.equal(found.isError, undefined, JSON.stringify(found));
const plain = await client.callTool({ name: "search", arguments: { query: "mcp" } });
assert.deepEqual(plain, { content: [{ type: "text", text: TEXT }], structuredContent: { error: ERROR }, isError: true });

// The widened tool keeps the error in structuredContent, and the 2.x client accepts it.
upstream.reset();
const ok = await client.callTool({ name: "search_structured", arguments: { query: "mcp" } });
assert.deepEqual(ok.structuredContent, { hits: ["mcp — first result", "mcp — second result"] });
const throttled = await client.callTool({ name: "search_structured", arguments: { query: "mcp" } });
assert.deepEqual(throttled, { content: [{ type: "text", text: TEXT }], structuredContent: { error: ERROR }, isError: true });
assert.deepEqual(parseRateLimitedResult(throttled), ERROR);
await client.close();
await upstream.close();

// The main entry's zod 4 schema inside this project's zod 4 object.
const Envelope = z.object({ tool: z.string(), error: RateLimitedErrorSchema });
assert.equal(Envelope.parse({ tool: "search", error: ERROR }).error.retry_after_seconds, 60);
assert.equal(Envelope.safeParse({ tool: "x", error: { ...ERROR, retry_after_seconds: -1 } }).success, false);

console.log("zod4-sdk2: quick start shape and widened zod 4 tool through a 2.4 Client, zod 4 schema: ok");
