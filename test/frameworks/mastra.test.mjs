// Mastra (`@mastra/core` 0.24 with `@mastra/mcp` 0.14, or 1 with 2, whichever the project pins):
// `throttleAwareTools(await mcp.listTools())` (`getTools()` before Mastra 1) given
// to a real `Agent`, run by `agent.generate(…, { abortSignal })` with a scripted AI SDK model whose
// first step calls one tool and whose second reads the tool's output from its prompt: what the
// model gets is captured there.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";
import { throttleAwareTools } from "mcp-upstream-throttle/client";
import { checkHost, versionOf } from "./checks.mjs";
import { startServers } from "./server.mjs";

const core = versionOf("@mastra/core");
const MASTRA_1 = Number(core.split(".")[0]) >= 1;
let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** The AI SDK v2 model interface, both ways Mastra calls it. */
function scriptedModel(name, seen) {
  const step = (prompt) => {
    const results = prompt
      .filter((message) => message.role === "tool")
      .flatMap((message) => message.content);
    if (results.length === 0)
      return [{ type: "tool-call", toolCallId: "c1", toolName: name, input: '{"query":"q"}' }];
    seen.push(results.at(-1).output);
    return [{ type: "text", text: "done" }];
  };
  return {
    specificationVersion: "v2",
    provider: "scripted",
    modelId: "scripted",
    supportedUrls: {},
    async doGenerate({ prompt }) {
      const content = step(prompt);
      const finishReason = content[0].type === "tool-call" ? "tool-calls" : "stop";
      return { content, finishReason, usage, warnings: [] };
    },
    async doStream({ prompt }) {
      const content = step(prompt);
      const parts = [{ type: "stream-start", warnings: [] }];
      for (const part of content) {
        if (part.type === "text")
          parts.push(
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: part.text },
            { type: "text-end", id: "t" },
          );
        else parts.push(part);
      }
      const finishReason = content[0].type === "tool-call" ? "tool-calls" : "stop";
      parts.push({ type: "finish", finishReason, usage });
      return { stream: ReadableStream.from(parts) };
    },
  };
}

test(`agent.generate with throttleAwareTools(await mcp.${MASTRA_1 ? "listTools" : "getTools"}())`, async () => {
  const events = [];
  const mcp = new MCPClient({
    id: "mastra-host",
    servers: { docs: { url: new URL(servers.url) } },
  });
  try {
    const original = MASTRA_1 ? await mcp.listTools() : await mcp.getTools();
    // Mastra 1's MCP client throws `new Error(text)` for an error result: the sentence is all the
    // host gets, so waiting it out is opted into (`retryOnText`; see the host-side guide).
    const tools = throttleAwareTools(original, {
      onEvent: (event) => events.push(event),
      ...(MASTRA_1 ? { retryOnText: true } : {}),
    });
    // The tools keep their class (Mastra checks it).
    assert.equal(
      Object.getPrototypeOf(tools.docs_search),
      Object.getPrototypeOf(original.docs_search),
    );
    const run = async (name, abortSignal) => {
      const seen = [];
      const agent = new Agent({
        name: "searcher",
        instructions: "Search.",
        model: scriptedModel(`docs_${name}`, seen),
        tools,
      });
      await agent.generate("Search.", { maxSteps: 2, ...(abortSignal ? { abortSignal } : {}) });
      return seen[0];
    };
    const text = (output) => JSON.stringify(output ?? null);
    console.log(
      // Mastra hands the host no result that makes a cooldown safe (on Mastra 1 only the sentence,
      // which a tool's content could quote): the next `lookup` must reach the server.
      await checkHost(`@mastra/core ${core} + @mastra/mcp ${versionOf("@mastra/mcp")}`, {
        servers,
        events,
        run,
        text,
        cooldown: false,
      }),
    );
  } finally {
    await mcp.disconnect();
  }
});
