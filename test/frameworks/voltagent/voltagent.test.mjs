// VoltAgent `@voltagent/core` 2.10.0: `throttleAwareTools(await mcp.getTools())` (an array, kept
// an array) given to a real `Agent`, run by `agent.generateText(…, { abortSignal })` with a
// scripted AI SDK model (`MockLanguageModelV3`, `ai` 6) whose second step reads the tool's output
// from its prompt: what the model gets is captured there. `throttleAwareClient(mcp)` cannot reach
// the tools VoltAgent builds (they call a client of their own): it is refused, naming the adapter.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Agent, MCPConfiguration } from "@voltagent/core";
import { MockLanguageModelV3 } from "ai/test";
import { throttleAwareClient, throttleAwareTools } from "mcp-upstream-throttle/client";
import { checkHost } from "./checks.mjs";
import { scriptedModel } from "./scripted-model.mjs";
import { startServers } from "./server.mjs";

let servers;
before(async () => {
  servers = await startServers();
});
after(async () => {
  await servers.close();
  // VoltAgent 2.10 keeps handles open once every agent is done, so the process would never end
  // on its own (Node 24's runner then waits for ever): it ends once its test has reported.
  setTimeout(() => process.exit(), 500).unref();
});

test("agent.generateText with throttleAwareTools(await mcp.getTools())", async () => {
  const events = [];
  const mcp = new MCPConfiguration({
    servers: { docs: { type: "streamable-http", url: servers.url } },
  });
  try {
    assert.throws(() => throttleAwareClient(mcp), /throttleAwareTools/);
    const original = await mcp.getTools();
    const tools = throttleAwareTools(original, { onEvent: (event) => events.push(event) });
    assert.ok(Array.isArray(tools), "an array stays an array");
    assert.equal(tools.length, original.length);
    const toolName = (name) => tools.find((tool) => tool.name.endsWith(name)).name;
    const run = async (name, abortSignal) => {
      const seen = [];
      const agent = new Agent({
        name: "searcher",
        instructions: "Search.",
        model: scriptedModel(MockLanguageModelV3, toolName(name), seen),
        tools,
      });
      await agent.generateText("Search.", { maxSteps: 2, ...(abortSignal ? { abortSignal } : {}) });
      return seen[0];
    };
    const text = (output) => JSON.stringify(output ?? null);
    console.log(await checkHost("@voltagent/core 2.10.0", { servers, events, run, text }));
  } finally {
    await mcp.disconnect();
  }
});
