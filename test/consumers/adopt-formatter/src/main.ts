// adopt-formatter: a shared formatter that rethrows a new Error around the throttle; adopted,
// the client gets the rate_limited result, in _meta for the tool whose outputSchema forbids it.
import assert from "node:assert/strict";
import { changedLines, clientOf, modelReads, rateLimitedOf, startUpstream, wordsLost } from "./harness.js";

const words = "Rate limit exceeded. Please retry after 37s";
const upstream = await startUpstream((_req, res) => {
  // The delay is only in the prose: no Retry-After, no reset header.
  res.writeHead(429, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: words }));
});

const { createSearchServer: before } = await import("./before.js");
const plain = await clientOf(before(upstream.url));
const was = await plain.callTool({ name: "web_search", arguments: { query: "mcp" } });
assert.equal(rateLimitedOf(was), undefined);
assert.match(JSON.stringify(was.content), /web_search failed: Search API error \(429\)/);
// The 1.x client checks an isError result's structuredContent against the listed outputSchema.
const wasContents = await plain.callTool({ name: "get_contents", arguments: { url: "https://a.example" } });
assert.equal(rateLimitedOf(wasContents), undefined);

const { createSearchServer: after } = await import("./after.js");
const adopted = await clientOf(after(upstream.url));
const result = await adopted.callTool({ name: "web_search", arguments: { query: "mcp" } });
const error = rateLimitedOf(result);
assert.ok(error, JSON.stringify(result));
assert.equal(error.limit, "search");
assert.equal(error.message, words);
// A delay stated only in the prose is the upstream's word too (delaySource "message").
assert.equal(error.retry_after_seconds, 37);
// The tool's formatter now words the library's error, not the 429 body: the upstream's own
// words, which the model read inside that body before, follow the library's sentence.
assert.deepEqual(wordsLost(words, modelReads(result)), []);
console.log(`adopt-formatter: before, the model read ${JSON.stringify(modelReads(was))}`);
console.log(`adopt-formatter: after, it reads ${JSON.stringify(modelReads(result))}`);
const sent = upstream.total();
for (let i = 0; i < 2; i += 1) {
  const again = await adopted.callTool({ name: "web_search", arguments: { query: "mcp" } });
  assert.equal(rateLimitedOf(again)?.limit, "search", JSON.stringify(again));
}
assert.equal(upstream.total(), sent);
console.log(`adopt-formatter: 2 more calls inside the delay, ${upstream.total() - sent} more upstream requests`);

const contents = await adopted.callTool({ name: "get_contents", arguments: { url: "https://a.example" } });
assert.equal(contents.structuredContent, undefined);
assert.equal((contents._meta?.["mcp-upstream-throttle/error"] as { type?: string })?.type, "rate_limited");
console.log("adopt-formatter: get_contents (outputSchema) -> the error in _meta");

const diff = changedLines("src/before.ts", "src/after.ts");
assert.ok(diff.changed <= 3, JSON.stringify(diff));
console.log(`adopt-formatter: ${diff.changed} changed lines (${diff.added} added, ${diff.removed} removed)`);
await upstream.close();
process.exit(0);
