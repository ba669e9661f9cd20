// Runs the package as this project would: the README's quick start over stdio, the widened tool
// through a real SDK Client in memory, and the zod 3 schemas of the "./zod3" entry.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { parseRateLimitedResult } from "mcp-upstream-throttle";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { RateLimitedErrorSchema } from "mcp-upstream-throttle/zod3";
import { z } from "zod";
import { createServer, LIMIT } from "./server.js";

const require = createRequire(import.meta.url);
const FROZEN = Date.parse("2026-11-29T12:00:00Z");
const MESSAGE = "This endpoint has been requested too many times. Try again later.";

// zod 3 itself, not zod 4 under the "zod" name.
assert.match((require("zod/package.json") as { version: string }).version, /^3\.25\./);

// 1. The README's quick start, as committed here, is the one in the installed package's README.
const readme = await readFile(require.resolve("mcp-upstream-throttle/package.json").replace(/package\.json$/, "README.md"), "utf8");
const block = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
const quickstartTs = await readFile(fileURLToPath(new URL("../../src/quickstart.ts", import.meta.url)), "utf8");
assert.equal(quickstartTs, block, "src/quickstart.ts differs from the README's quick start: copy it again");

// 2. Run it over stdio against a GitHub-shaped upstream: one answer, then an exhausted quota.
let calls = 0;
const github = createHttpServer((_req, res) => {
  calls += 1;
  if (calls === 1) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ items: [{ full_name: "modelcontextprotocol/typescript-sdk" }] }));
    return;
  }
  res.writeHead(403, {
    "content-type": "application/json",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 37),
  });
  res.end(JSON.stringify({ message: "API rate limit exceeded for user ID 1." }));
});
await new Promise<void>((resolve) => github.listen(0, "127.0.0.1", resolve));
const githubUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
const stdioClient = new Client({ name: "quickstart-client", version: "1.0.0" });
await stdioClient.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL("./quickstart.js", import.meta.url))],
    env: { PATH: process.env.PATH ?? "", GITHUB_API_URL: githubUrl },
    stderr: "inherit",
  }),
);
const found = await stdioClient.callTool({ name: "search_repositories", arguments: { query: "mcp" } });
assert.deepEqual(found, { content: [{ type: "text", text: "modelcontextprotocol/typescript-sdk" }] });
const quota = await stdioClient.callTool({ name: "search_repositories", arguments: { query: "mcp" } });
assert.equal(quota.isError, true);
assert.equal(parseRateLimitedResult(quota)?.limit, "github_search");
assert.ok((parseRateLimitedResult(quota)?.retry_after_seconds ?? 0) >= 36);
await stdioClient.close();
github.close();

// 3. The widened tool through a real Client in memory, after listTools.
const upstream = await startFakeUpstream({ limits: { "/search": { limit: 1, windowMs: 60_000 } }, now: () => FROZEN });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createServer(upstream.url).connect(serverSide);
const client = new Client({ name: "zod3-client", version: "1.0.0" });
await client.connect(clientSide);
const { tools } = await client.listTools();
const listed = tools.find((tool) => tool.name === "search_structured")?.outputSchema as
  | { properties: { error: { properties: Record<string, unknown> } } }
  | undefined;
assert.ok(listed, "search_structured lists an outputSchema");
const retryAfter = listed.properties.error.properties.retry_after_seconds as Record<string, unknown>;
assert.equal(retryAfter.type, "integer", JSON.stringify(retryAfter));
assert.equal(retryAfter.minimum, 0, JSON.stringify(retryAfter));
const ok = await client.callTool({ name: "search_structured", arguments: { query: "mcp" } });
assert.deepEqual(ok.structuredContent, { hits: ["mcp — first result", "mcp — second result"] });
const throttled = await client.callTool({ name: "search_structured", arguments: { query: "mcp" } });
assert.deepEqual(throttled, {
  content: [
    {
      type: "text",
      text: `Rate limited by ${LIMIT}. Retry after 60 seconds. The upstream said: ${JSON.stringify(MESSAGE)}`,
    },
  ],
  structuredContent: { error: { type: "rate_limited", retry_after_seconds: 60, limit: LIMIT, message: MESSAGE } },
  isError: true,
});
await client.close();
await upstream.close();

// 4. The "./zod3" schema inside a zod 3 object.
const Envelope = z.object({ tool: z.string(), error: RateLimitedErrorSchema });
const parsed = Envelope.parse({ tool: "search_structured", ...throttled.structuredContent });
assert.equal(parsed.error.retry_after_seconds, 60);
assert.equal(Envelope.safeParse({ tool: "x", error: { type: "rate_limited", limit: "", message: "m" } }).success, false);

console.log("zod3-sdk1: README quick start over stdio, widened zod 3 tool through a 1.29 Client, ./zod3 schema: ok");
