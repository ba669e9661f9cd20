// OpenAI Agents (`@openai/agents`, the release the project pins): `mcpServers: [throttleAwareMcpServer(server)]` on an Agent
// that a real `run()` drives with a scripted model: its first turn calls one tool, its second
// reads the tool's output from the run's input, which is what the model gets, captured there.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Agent, MCPServerStreamableHttp, run, setTracingDisabled, Usage } from "@openai/agents";
import { throttleAwareClient, throttleAwareMcpServer } from "mcp-upstream-throttle/client";
import { checkHost, versionOf } from "./checks.mjs";
import { startServers } from "./server.mjs";

// No exporter: the run has no API key, and its traces are not what is checked.
setTracingDisabled(true);
let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

/** A model that calls `name` on its first turn and, on the next, records the tool's output. */
function scriptedModel(name, seen) {
  return {
    async getResponse(request) {
      const input = Array.isArray(request.input) ? request.input : [];
      const result = input.findLast((item) => item.type === "function_call_result");
      if (result === undefined)
        return {
          usage: new Usage(),
          output: [
            {
              type: "function_call",
              callId: "c1",
              name,
              arguments: '{"query":"q"}',
              status: "completed",
            },
          ],
        };
      seen.push(result.output);
      return {
        usage: new Usage(),
        output: [
          {
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "done" }],
          },
        ],
      };
    },
    getStreamedResponse() {
      throw new Error("the run does not stream");
    },
  };
}

test("run() of an Agent whose MCP server is throttleAwareMcpServer(server)", async () => {
  const events = [];
  const server = new MCPServerStreamableHttp({ url: servers.url, name: "docs" });
  await server.connect();
  try {
    // An MCPServer is not a client: refused, naming the adapter that works.
    assert.throws(() => throttleAwareClient(server), /throttleAwareMcpServer/);
    const wrapped = throttleAwareMcpServer(server, { onEvent: (event) => events.push(event) });
    const run1 = async (name, signal) => {
      const seen = [];
      const agent = new Agent({
        name: "searcher",
        instructions: "Search.",
        model: scriptedModel(name, seen),
        mcpServers: [wrapped],
      });
      await run(agent, "Search.", { maxTurns: 3, ...(signal ? { signal } : {}) });
      return seen[0];
    };
    const text = (output) => JSON.stringify(output ?? null);
    console.log(
      await checkHost(`@openai/agents ${versionOf("@openai/agents")}`, {
        servers,
        events,
        run: run1,
        text,
      }),
    );
  } finally {
    await server.close();
  }
});
