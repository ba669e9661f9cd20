// Mastra 0.24 (@mastra/core createTool, @mastra/mcp MCPServer). Tools made with createTool, their
// execute wrapped by withUpstreamThrottle and unannotated: `({ context })` is typed from the
// inputSchema when createTool is given its type, `createTool<typeof input>` (src/types.ts shows
// why: createTool infers execute's type as a type parameter of its own, which no generic wrapper
// can be typed against). Mastra's MCPServer answers every call with `isError: false` and the tool's
// return value as JSON text (a thrown error is caught by Mastra's tool builder and returned as a
// MastraError object, so throwing does not help), so no shape carries the throttle through it:
// the first part proves that, the second serves the same Mastra tools on the SDK's McpServer with
// throttledTool, where every check passes.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { RuntimeContext } from "@mastra/core/runtime-context";
import { createTool } from "@mastra/core/tools";
import { MCPServer } from "@mastra/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  parseRateLimitedResult,
  throttledFetch,
  throttledTool,
  withUpstreamThrottle,
} from "mcp-upstream-throttle";
import { readThrottle } from "mcp-upstream-throttle/client";
import { widenOutputShape } from "mcp-upstream-throttle/zod";
import { z } from "zod";
import { check, LIMIT, startUpstream } from "./harness.js";

const upstream = await startUpstream();
const search = throttledFetch({ limit: LIMIT });
const input = z.object({ query: z.string() });
const hits = { hits: z.array(z.string()) };

// --- Mastra's MCPServer: what the official client receives --------------------------------------
const plain = createTool<typeof input>({
  id: "plain",
  description: "no output schema, the wrapped execute returns the rate_limited result",
  inputSchema: input,
  execute: withUpstreamThrottle(async ({ context }) => {
    await search(`${upstream.url}/search?q=${context.query}`);
    return { content: [{ type: "text" as const, text: context.query }] };
  }),
});
const thrower = createTool({
  id: "thrower",
  description: "not wrapped: the throttle is thrown",
  inputSchema: input,
  execute: async ({ context }) => {
    await search(`${upstream.url}/search?q=${context.query}`);
    return { hits: [context.query] };
  },
});
const widened = createTool({
  id: "widened",
  description: "an output schema that admits the error object",
  inputSchema: input,
  outputSchema: z.object(widenOutputShape(hits)),
  execute: withUpstreamThrottle(async ({ context }) => {
    await search(`${upstream.url}/search?q=${context.query}`);
    return { content: [], structuredContent: { hits: [context.query] } };
    // Mastra types execute's result as the output schema's, not as a tool result.
  }) as never,
});
const meta = createTool({
  id: "meta",
  description: "a strict output schema, the error object in _meta",
  inputSchema: input,
  outputSchema: z.object(hits),
  execute: withUpstreamThrottle(
    async ({ context }) => {
      await search(`${upstream.url}/search?q=${context.query}`);
      return { content: [], structuredContent: { hits: [context.query] } };
    },
    { outputSchema: hits },
  ) as never,
});
const mastra = new MCPServer({
  name: "fw-mastra",
  version: "1.0.0",
  tools: { plain, thrower, widened, meta },
});

const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  await mastra.startHTTP({ url, httpPath: "/mcp", req, res, options: { serverless: true } });
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const mastraUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

type Received = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: unknown;
};
const client = new Client({ name: "framework-check", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(mastraUrl)));
const call = async (name: string) => {
  const result = (await client.callTool({ name, arguments: { query: "mcp" } })) as Received;
  console.log(`fw-mastra: received from ${name}: ${JSON.stringify(result).slice(0, 400)}`);
  return result;
};
try {
  // With a strict output schema Mastra validates the whole returned result as the structured
  // output (it has no `structuredContent` key), fails, and sends isError: true with the
  // validation error as text: the throttle's text and _meta are gone.
  const invalid = await call("meta");
  assert.equal(invalid.isError, true);
  assert.match(invalid.content[0]?.text ?? "", /^Error: Invalid structured content for tool meta/);
  assert.equal(invalid._meta, undefined);
  assert.equal(readThrottle(invalid), undefined);
  for (const name of ["plain", "thrower", "widened"]) {
    const result = await call(name);
    // No shape carries the throttle: isError is false, and a host's readers find nothing.
    assert.equal(result.isError, false, `${name}: Mastra sends isError: false`);
    assert.equal(parseRateLimitedResult(result), undefined);
    assert.equal(readThrottle(result), undefined);
    const text = result.content[0]?.text ?? "";
    if (name === "plain") {
      // The wrapper's whole result, as JSON text.
      const returned = JSON.parse(text) as Received;
      assert.equal(returned.isError, true);
      assert.equal(parseRateLimitedResult(returned)?.retry_after_seconds, 60);
    } else if (name === "thrower") {
      // Mastra's tool builder caught the throw and returned a MastraError: its JSON.
      assert.match(text, /TOOL_EXECUTION_FAILED/);
    } else {
      // The error object arrives in structuredContent, but under isError: false.
      assert.equal((result.structuredContent?.error as { limit?: string })?.limit, LIMIT);
      assert.equal(text, JSON.stringify(result.structuredContent));
    }
  }
  console.log(
    "fw-mastra: MCPServer: isError false for three shapes, a validation error for the fourth; readThrottle finds none",
  );
} finally {
  await client.close();
  await new Promise((resolve) => {
    http.closeAllConnections();
    http.close(resolve);
  });
}

// --- The workaround: the same Mastra tools served by the SDK's McpServer -----------------------
// A Mastra tool left unwrapped (its throttle thrown), run by a throttledTool callback.
const mastraTool = (id: string, path: string) =>
  createTool({
    id,
    description: "a Mastra tool whose throttle is thrown",
    inputSchema: input,
    execute: async ({ context }) => {
      await search(`${upstream.url}/${path}?q=${context.query}`);
      return { hits: [context.query] };
    },
  });
const run = (tool: ReturnType<typeof mastraTool>) => async (args: { query: string }) =>
  (await tool.execute?.({ context: args, runtimeContext: new RuntimeContext() })) as {
    hits: string[];
  };
const searchTool = mastraTool("plain", "search");
const cooledTool = mastraTool("cooled", "cooled");
// Declared once, at module level: the stateless server below registers them per request.
const declared = {
  plain: throttledTool({ inputSchema: input.shape }, async (args) => ({
    content: [{ type: "text", text: JSON.stringify(await run(searchTool)(args)) }],
  })),
  typed: throttledTool({ inputSchema: input.shape, outputSchema: hits }, async (args) => ({
    content: [],
    structuredContent: await run(searchTool)(args),
  })),
  cooled: throttledTool(
    { inputSchema: input.shape },
    async (args) => ({
      content: [{ type: "text", text: JSON.stringify(await run(cooledTool)(args)) }],
    }),
    { limit: LIMIT, cooldown: true },
  ),
};
const sdk = () => {
  const server = new McpServer({ name: "fw-mastra-sdk", version: "1.0.0" });
  server.registerTool("plain", ...declared.plain);
  server.registerTool("typed", ...declared.typed);
  server.registerTool("cooled", ...declared.cooled);
  return server;
};
const sdkHttp = createServer(async (req, res) => {
  const server = sdk();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void Promise.all([transport.close(), server.close()]));
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
await new Promise<void>((resolve) => sdkHttp.listen(0, "127.0.0.1", resolve));
try {
  await check(
    "fw-mastra",
    `http://127.0.0.1:${(sdkHttp.address() as AddressInfo).port}/mcp`,
    upstream,
    { tools: { plain: "structuredContent", typed: "meta" }, cooldownTool: "cooled" },
    { label: "Mastra tools on the SDK McpServer" },
  );
} finally {
  await new Promise((resolve) => {
    sdkHttp.closeAllConnections();
    sdkHttp.close(resolve);
  });
  await upstream.close();
}
