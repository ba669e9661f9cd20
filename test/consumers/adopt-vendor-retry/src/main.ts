// adopt-vendor-retry: a vendor SDK behind the server's own retry loop. Before: three requests
// and "Error: …" text. Adopted (3 changed lines): one request (the loop's retries are answered
// by the cooldown) and the rate_limited result with the upstream's delay and words.
import assert from "node:assert/strict";
import { changedLines, clientOf, modelReads, rateLimitedOf, startUpstream, wordsLost } from "./harness.js";

const words = "Rate limit exceeded. Consumed (req/min): 11, Remaining (req/min): 0. Please retry after 37s";
const upstream = await startUpstream((_req, res) => {
  res.writeHead(429, { "content-type": "application/json", "retry-after": "37" });
  res.end(JSON.stringify({ success: false, error: words }));
});

const { createCrawlServer: before } = await import("./before.js");
const plain = await clientOf(before(upstream.url));
const was = await plain.callTool({ name: "scrape", arguments: { url: "https://a.example" } });
assert.equal(rateLimitedOf(was), undefined);
assert.equal(upstream.total(), 3);
console.log(`adopt-vendor-retry: before, ${upstream.total()} requests, ${JSON.stringify(was.content)}`);

upstream.reset();
const { createCrawlServer: after } = await import("./after.js");
const adopted = await clientOf(after(upstream.url));
const result = await adopted.callTool({ name: "scrape", arguments: { url: "https://a.example" } });
const error = rateLimitedOf(result);
assert.ok(error, JSON.stringify(result));
assert.equal(error.limit, "crawl");
assert.equal(error.retry_after_seconds, 37);
assert.equal(error.message, words);
assert.equal(upstream.total(), 1);
console.log(`adopt-vendor-retry: after, ${upstream.total()} request, ${JSON.stringify(result.content)}`);
assert.deepEqual(wordsLost(modelReads(was), modelReads(result), ["fc-test-key"]), []);
for (let i = 0; i < 2; i += 1) {
  const again = await adopted.callTool({ name: "scrape", arguments: { url: "https://a.example" } });
  assert.equal(rateLimitedOf(again)?.limit, "crawl", JSON.stringify(again));
}
assert.equal(upstream.total(), 1);
console.log("adopt-vendor-retry: 3 calls inside the delay, 1 upstream request in all");

const diff = changedLines("src/before.ts", "src/after.ts");
assert.ok(diff.changed <= 3, JSON.stringify(diff));
console.log(`adopt-vendor-retry: ${diff.changed} changed lines (${diff.added} added, ${diff.removed} removed)`);
await upstream.close();
process.exit(0);
