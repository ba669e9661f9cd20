// adopt-floor: the oldest SDK and zod that published servers pin (SDK 1.0.1, zod 3.24). The
// package installs next to them without --legacy-peer-deps, and the low-level Server path
// works: throttledFetch, throttleServer, the rate_limited result the 1.0.1 client receives.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  isRateLimitedResult,
  parseRateLimitedResult,
  throttledFetch,
  throttleServer,
  withUpstreamThrottle,
} from "mcp-upstream-throttle";

const upstream = createServer((req, res) => {
  req.resume();
  res.writeHead(429, { "content-type": "application/json", "retry-after": "42" });
  res.end(JSON.stringify({ message: "API rate limit exceeded" }));
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/search`;
const github = throttledFetch({ limit: "github" });

async function call(server: Server) {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "search", inputSchema: { type: "object" } }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "floor", version: "1.0.0" }, { capabilities: {} });
  await client.connect(clientSide);
  return client.callTool({ name: "search", arguments: {} });
}
const fresh = () => new Server({ name: "floor", version: "1.0.0" }, { capabilities: { tools: {} } });

// The handler wrapper, as the tool-authors guide shows it.
const wrapped = fresh();
wrapped.setRequestHandler(
  CallToolRequestSchema,
  withUpstreamThrottle(async () => {
    await github(url);
    return { content: [] };
  }),
);
const first = await call(wrapped);
assert.equal(isRateLimitedResult(first), true, JSON.stringify(first));
assert.equal(parseRateLimitedResult(first)?.retry_after_seconds, 42);
console.log(`adopt-floor: withUpstreamThrottle on SDK 1.0.1 -> ${JSON.stringify(first.content)}`);

// throttleServer past a catch-all.
const adopted = throttleServer(fresh());
adopted.setRequestHandler(CallToolRequestSchema, async () => {
  try {
    await github(url);
    return { content: [] };
  } catch (error) {
    return { content: [{ type: "text", text: `Error: ${String(error)}` }], isError: true };
  }
});
const second = await call(adopted);
assert.deepEqual(parseRateLimitedResult(second), {
  type: "rate_limited",
  limit: "github",
  retry_after_seconds: 42,
  message: "API rate limit exceeded",
});
console.log(`adopt-floor: throttleServer on SDK 1.0.1 -> ${JSON.stringify(second.content)}`);

upstream.closeAllConnections();
upstream.close();
process.exit(0);
