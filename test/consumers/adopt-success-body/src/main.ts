// adopt-success-body: tools that return the 429's JSON as a success; adopted, the client gets
// the rate_limited result with the upstream's Retry-After.
import assert from "node:assert/strict";
import { changedLines, clientOf, modelReads, rateLimitedOf, startUpstream, wordsLost } from "./harness.js";

const upstream = await startUpstream((_req, res) => {
  res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
  res.end(JSON.stringify({ ok: false, error: "ratelimited" }));
});

const { createChatServer: before } = await import("./before.js");
const plain = await clientOf(before(upstream.url));
const was = await plain.callTool({ name: "list_channels", arguments: {} });
assert.equal(was.isError, undefined);
assert.deepEqual(was.content, [{ type: "text", text: '{"ok":false,"error":"ratelimited"}' }]);

const { createChatServer: after } = await import("./after.js");
const adopted = await clientOf(after(upstream.url));
const first = await adopted.callTool({ name: "list_channels", arguments: {} });
assert.deepEqual(wordsLost(modelReads(was), modelReads(first)), []);
console.log(`adopt-success-body: before, the model read ${JSON.stringify(modelReads(was))}`);
console.log(`adopt-success-body: after, it reads ${JSON.stringify(modelReads(first))}`);
const sent = upstream.total();
for (const [name, args] of [
  ["list_channels", {}],
  ["post_message", { channel: "C1", text: "hi" }],
] as const) {
  const result = await adopted.callTool({ name, arguments: args });
  const error = rateLimitedOf(result);
  assert.ok(error, JSON.stringify(result));
  assert.equal(result.isError, true);
  assert.equal(error.limit, "slack");
  assert.ok(Number(error.retry_after_seconds) <= 30 && Number(error.retry_after_seconds) > 0);
}
// Inside the delay the cooldown answers both tools: no request reaches the upstream.
assert.equal(upstream.total(), sent);
console.log(`adopt-success-body: 2 more calls inside the delay, ${upstream.total() - sent} more upstream requests`);
// Code that reads the 429 itself still sees it: the switch changes nothing outside a tool call.
assert.equal((await fetch(`${upstream.url}/api/auth.test`)).status, 429);

const diff = changedLines("src/before.ts", "src/after.ts");
assert.ok(diff.changed <= 3, JSON.stringify(diff));
console.log(`adopt-success-body: ${diff.changed} changed lines (${diff.added} added, ${diff.removed} removed)`);
await upstream.close();
process.exit(0);
