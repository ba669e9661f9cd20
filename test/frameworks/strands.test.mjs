// Strands (`@strands-agents/sdk`, the release the project pins): `new McpClient({ transport: throttleAwareTransport(…) })`.
// The tools `listTools()` hands the agent run `McpTool.stream`, whose result block is what the
// model gets (status "error" and the text for a throttled tool); `throttleAwareClient(mcpClient)`
// is refused, naming the recipe.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpClient } from "@strands-agents/sdk";
import { throttleAwareClient, throttleAwareTransport } from "mcp-upstream-throttle/client";
import { checkHost, versionOf } from "./checks.mjs";
import { startServers } from "./server.mjs";

let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

/** Runs a Strands tool as the agent does and returns the ToolResultBlock the model is given. */
async function stream(tool, cancelSignal) {
  const steps = tool.stream({
    toolUse: { toolUseId: "t1", name: tool.name, input: { query: "q" } },
    cancelSignal,
    agent: {},
  });
  for (;;) {
    const step = await steps.next();
    if (step.done) return step.value;
  }
}

test("the tools of a Strands McpClient go through the wait and the cooldown", async () => {
  const events = [];
  const client = new McpClient({
    transport: throttleAwareTransport(new StreamableHTTPClientTransport(new URL(servers.url)), {
      onEvent: (event) => events.push(event),
    }),
  });
  await client.connect();
  try {
    assert.throws(() => throttleAwareClient(client), /Strands.*throttleAwareTransport/);
    const tools = await client.listTools();
    const run = (name, signal) =>
      stream(
        tools.find((candidate) => candidate.name === name),
        signal,
      );
    const text = (block) => `${block.status}: ${block.content.map((part) => part.text).join("")}`;
    console.log(
      await checkHost(`@strands-agents/sdk ${versionOf("@strands-agents/sdk")}`, {
        servers,
        events,
        run,
        text,
      }),
    );
  } finally {
    await client.disconnect();
  }
});
