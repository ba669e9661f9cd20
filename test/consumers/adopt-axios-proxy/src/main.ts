// adopt-axios-proxy: generated tools on one axios instance, errors reported as data. Adopted
// (3 changed lines): every generated tool gives the rate_limited result with the upstream's
// Retry-After and message.
import assert from "node:assert/strict";
import { changedLines, clientOf, modelReads, rateLimitedOf, startUpstream, wordsLost } from "./harness.js";

const words = "You have been rate limited. Please try again in a few minutes.";
const upstream = await startUpstream((_req, res) => {
  res.writeHead(429, { "content-type": "application/json", "retry-after": "20" });
  res.end(JSON.stringify({ object: "error", status: 429, code: "rate_limited", message: words }));
});

const { createProxyServer: before } = await import("./before.js");
const plain = await clientOf(before(upstream.url));
const was = await plain.callTool({ name: "search", arguments: {} });
assert.equal(was.isError, undefined);
assert.match(JSON.stringify(was.content), /\\"code\\":\\"rate_limited\\"/);

const { createProxyServer: after } = await import("./after.js");
const adopted = await clientOf(after(upstream.url));
const first = await adopted.callTool({ name: "search", arguments: { id: "abc" } });
const error = rateLimitedOf(first);
assert.ok(error, JSON.stringify(first));
assert.equal(first.isError, true);
assert.equal(error.limit, "notion");
assert.equal(error.retry_after_seconds, 20);
assert.equal(error.message, words);
assert.deepEqual(wordsLost(modelReads(was), modelReads(first), ["ntn_test_token"]), []);
console.log(`adopt-axios-proxy: before, the model read ${JSON.stringify(modelReads(was))}`);
console.log(`adopt-axios-proxy: after, it reads ${JSON.stringify(modelReads(first))}`);
// One key, one limit: inside the delay every generated tool is answered from the cooldown.
const sent = upstream.total();
for (const name of ["retrieve-a-page", "query-a-database", "search"]) {
  const result = await adopted.callTool({ name, arguments: { id: "abc" } });
  assert.equal(rateLimitedOf(result)?.limit, "notion", `${name}: ${JSON.stringify(result)}`);
}
assert.equal(upstream.total(), sent);
console.log(`adopt-axios-proxy: 3 more calls inside the delay (each tool), ${upstream.total() - sent} more upstream requests`);

const diff = changedLines("src/before.ts", "src/after.ts");
assert.ok(diff.changed <= 3, JSON.stringify(diff));
console.log(`adopt-axios-proxy: ${diff.changed} changed lines (${diff.added} added, ${diff.removed} removed)`);
await upstream.close();
process.exit(0);
