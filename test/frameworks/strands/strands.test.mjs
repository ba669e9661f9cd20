// Strands `@strands-agents/sdk` 1.16.0: `new McpClient({ transport: throttleAwareTransport(…) })`.
// The tools `listTools()` hands the agent run `McpTool.stream`, whose result block is what the
// model gets (status "error" and the text for a throttled tool); they go through the wait and
// the cooldown, and `throttleAwareClient(mcpClient)` is refused, naming the recipe.

import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpClient } from "@strands-agents/sdk";
import {
  readThrottle,
  throttleAwareClient,
  throttleAwareTransport,
} from "mcp-upstream-throttle/client";
import { startServers } from "./server.mjs";

let servers;
let events;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());
beforeEach(() => {
  events = [];
});
const count = (type) => events.filter((event) => event.type === type).length;

/** Runs a Strands tool as the agent does and returns the ToolResultBlock the model is given. */
async function run(tool, input, cancelSignal) {
  const stream = tool.stream({
    toolUse: { toolUseId: "t1", name: tool.name, input },
    cancelSignal,
    agent: {},
  });
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}
const text = (block) => block.content.map((part) => part.text).join("");

test("the tools of a Strands McpClient go through the wait and the cooldown", async () => {
  const client = new McpClient({
    transport: throttleAwareTransport(new StreamableHTTPClientTransport(new URL(servers.url)), {
      onEvent: (event) => events.push(event),
    }),
  });
  await client.connect();
  try {
    assert.throws(() => throttleAwareClient(client), /Strands.*throttleAwareTransport/);
    const tools = await client.listTools();
    const tool = (name) => tools.find((candidate) => candidate.name === name);
    await run(tool("search"), { query: "q" });
    const short = await run(tool("search"), { query: "q" });
    assert.equal(short.status, "success");
    assert.equal(count("retry"), 1);
    const long = await run(tool("lookup"), { query: "q" });
    assert.equal(long.status, "error");
    assert.equal(text(long), "Rate limited by lookup_rate_limit. Retry after 60 seconds.");
    const before = servers.counts.toolCalls;
    const cooled = await run(tool("lookup"), { query: "q" });
    assert.equal(servers.counts.toolCalls, before, "the cooldown answered without a request");
    assert.equal(count("cooldown-hit"), 1);
    assert.equal(cooled.status, "error");
    assert.match(text(cooled), /^Rate limited by lookup_rate_limit\. Retry after \d+ seconds\.$/);
    assert.equal(readThrottle(text(cooled))?.limit, "lookup_rate_limit");
    // The agent's cancelSignal ends a wait: the second search within its second is throttled
    // for a second, and the cancel comes after 100 ms.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await run(tool("search"), { query: "q" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const calls = servers.counts.toolCalls;
    const stopped = await run(tool("search"), { query: "q" }, controller.signal);
    // Had the wait gone on, the retry after it would have succeeded.
    assert.equal(stopped.status, "error");
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.equal(
      servers.counts.toolCalls,
      calls + 1,
      "only the throttled attempt reached the server",
    );
  } finally {
    await client.disconnect();
  }
});
