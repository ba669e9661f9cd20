// A CommonJS script, no TypeScript: require() of the ESM-only package (require(esm), unflagged
// from Node 20.19, the package's `engines`). The vitest entry is left out: it needs vitest.
"use strict";
const assert = require("node:assert/strict");
const { rateLimitedResult, throttledFetch, withUpstreamThrottle } = require("mcp-upstream-throttle");
const { RateLimitedErrorSchema } = require("mcp-upstream-throttle/zod");
const zod3 = require("mcp-upstream-throttle/zod3");
const { expectRateLimited } = require("mcp-upstream-throttle/testing");
const { startFakeUpstream } = require("mcp-upstream-throttle/testing/node");

async function main() {
  const upstream = await startFakeUpstream({ limits: { "/search": { limit: 0, windowMs: 60_000 } } });
  const search = throttledFetch({ limit: "search_api" });
  const tool = withUpstreamThrottle(async () => {
    await search(`${upstream.url}/search?q=mcp`);
    return { content: [{ type: "text", text: "unreachable" }] };
  });
  expectRateLimited(await tool({}), { limit: "search_api", retryAfterSeconds: 60 });
  await upstream.close();

  const error = rateLimitedResult({ limit: "search_api", retryAfterSeconds: 1 }).structuredContent.error;
  assert.deepEqual(RateLimitedErrorSchema.parse(error), error);
  assert.deepEqual(zod3.RateLimitedErrorSchema.parse(error), error);
  console.log(`cjs-require: require() of the ESM package on Node ${process.versions.node}: ok`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
