// adopt-low-level: the same server before and after adopting the library (3 changed lines);
// the client of the adopted one gets the rate_limited result with the upstream's delay.
import assert from "node:assert/strict";
import { changedLines, clientOf, modelReads, rateLimitedOf, startUpstream, wordsLost } from "./harness.js";

const upstream = await startUpstream((req, res) => {
  if (req.url?.startsWith("/res/v1/local/search")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ids: [] }));
    return;
  }
  // Brave's documented 429: the per-second and per-month windows, comma-separated.
  res.writeHead(429, {
    "content-type": "application/json",
    "x-ratelimit-limit": "1, 15000",
    "x-ratelimit-remaining": "0, 14000",
    "x-ratelimit-reset": "1, 1419704",
  });
  res.end(
    JSON.stringify({
      type: "ErrorResponse",
      error: { status: 429, code: "RATE_LIMITED", detail: "Request rate limit exceeded for plan." },
    }),
  );
});

const { createSearchServer: before } = await import("./before.js");
const plain = await clientOf(before(upstream.url));
const was = await plain.callTool({ name: "web_search", arguments: { query: "mcp" } });
assert.equal(rateLimitedOf(was), undefined);
assert.match(JSON.stringify(was.content), /Error: API error: 429/);

const { createSearchServer: after } = await import("./after.js");
const adopted = await clientOf(after(upstream.url));
const first = await adopted.callTool({ name: "web_search", arguments: { query: "mcp" } });
const error = rateLimitedOf(first);
assert.ok(error, JSON.stringify(first));
assert.equal(first.isError, true);
assert.equal(error.limit, "brave_search");
assert.equal(error.retry_after_seconds, 1);
// Brave's words sit in error.detail: the model reads them, as it read them before.
assert.equal(error.message, "Request rate limit exceeded for plan.");
assert.deepEqual(wordsLost(modelReads(was), modelReads(first)), []);
console.log(`adopt-low-level: before, the model read ${JSON.stringify(modelReads(was))}`);
console.log(`adopt-low-level: after, it reads ${JSON.stringify(modelReads(first))}`);
// Inside the delay, the cooldown answers: every tool, no request reaches the upstream.
// Brave's per-second window is a wait of 1 s: on a machine too busy to make two calls within it,
// the cooldown has rightly ended and the count is not judged.
const throttled = () => upstream.hits.get("/res/v1/web/search") ?? 0;
const sent = throttled();
const started = performance.now();
for (const tool of ["web_search", "local_search"]) {
  const again = await adopted.callTool({ name: tool, arguments: { query: "mcp" } });
  assert.equal(rateLimitedOf(again)?.limit, "brave_search", JSON.stringify(again));
}
// local_search's own first request carries no key (another partition) and is answered; its
// fallback to the web search, with the key, is the cooldown's.
if (performance.now() - started < 800) assert.equal(throttled(), sent);
console.log(`adopt-low-level: 2 more calls inside the delay, ${throttled() - sent} more requests to the throttled endpoint`);

const diff = changedLines("src/before.ts", "src/after.ts");
assert.ok(diff.changed <= 3, JSON.stringify(diff));
console.log(`adopt-low-level: ${diff.changed} changed lines (${diff.added} added, ${diff.removed} removed)`);
await upstream.close();
process.exit(0);
