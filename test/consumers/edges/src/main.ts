// The package at the edges of what it supports: the oldest TypeScript (5.4, the first with
// `NoInfer`) and the oldest @modelcontextprotocol/sdk (1.15.0, the first whose `registerTool`
// types accept the quick start) compile every entry with skipLibCheck off (`npm run typecheck`,
// which also checks the vitest entry against vitest 3, 4 and 5); then the README's quick start
// runs over stdio on SDK 1.15.0 and reports a throttle.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parseRateLimitedResult } from "mcp-upstream-throttle";

const require = createRequire(import.meta.url);
// Read from disk: the SDK's exports map answers "./package.json" with a file of its own.
const versionOf = async (name: string) =>
  (JSON.parse(await readFile(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8")) as { version: string }).version;
assert.equal(await versionOf("@modelcontextprotocol/sdk"), "1.15.0");
assert.equal(await versionOf("typescript"), "5.4.5");

// The quick start compiled here is the one in the installed package's README.
const readme = await readFile(require.resolve("mcp-upstream-throttle/package.json").replace(/package\.json$/, "README.md"), "utf8");
const block = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
const copy = await readFile(fileURLToPath(new URL("../src/quickstart.ts", import.meta.url)), "utf8");
assert.equal(copy, block, "src/quickstart.ts differs from the README's quick start: copy it again");

const github = createServer((_req, res) => {
  res.writeHead(403, {
    "content-type": "application/json",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 37),
  });
  res.end(JSON.stringify({ message: "API rate limit exceeded for user ID 1." }));
});
await new Promise<void>((resolve) => github.listen(0, "127.0.0.1", resolve));
const client = new Client({ name: "edges", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL("./quickstart.js", import.meta.url))],
    env: { PATH: process.env.PATH ?? "", GITHUB_API_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}` },
    stderr: "inherit",
  }),
);
const tool = (await client.listTools()).tools[0];
assert.ok(tool, "the quick start registers a tool");
const result = await client.callTool({ name: tool.name, arguments: { query: "mcp" } });
assert.equal(result.isError, true);
const error = parseRateLimitedResult(result);
assert.ok(error, "the client received a rate_limited result");
assert.ok(error.retry_after_seconds !== undefined && error.retry_after_seconds >= 36 && error.retry_after_seconds <= 38);
await client.close();
github.close();
console.log(`edges: TypeScript 5.4.5 and SDK 1.15.0 compile every entry, vitest 3/4/5 types merge, the quick start reports ${error.limit} over stdio: ok`);
