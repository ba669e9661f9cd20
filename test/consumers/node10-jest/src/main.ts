// Compiled to CommonJS: `require("mcp-upstream-throttle")` loads the ESM package (require(esm),
// Node >= 20.19), and the testing helpers work without vitest.
import { parseRateLimitedResult } from "mcp-upstream-throttle";
import { expectRateLimited } from "mcp-upstream-throttle/testing";
import { startFakeUpstream } from "mcp-upstream-throttle/testing/node";
import { LIMIT, searchTool } from "./search";

async function main(): Promise<void> {
  const upstream = await startFakeUpstream({
    limits: { "/search": { limit: 1, windowMs: 60_000 } },
    now: () => Date.parse("2026-11-29T12:00:00Z"),
  });
  const search = searchTool(upstream.url);
  const ok = await search({ query: "mcp" });
  if (parseRateLimitedResult(ok) !== undefined) throw new Error(`not throttled yet: ${JSON.stringify(ok)}`);
  expectRateLimited(await search({ query: "mcp" }), { limit: LIMIT, retryAfterSeconds: 60 });
  await upstream.close();
  console.log("node10-jest: node10 types without vitest, require() of the ESM package from CommonJS: ok");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
