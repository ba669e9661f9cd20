// The AI SDK `ai` 6.0.325 with `@ai-sdk/mcp` 1.0.102: `await throttleAwareClient(mcp).tools()` handed to a
// real `generateText` run whose scripted model (`MockLanguageModelV3`) calls one tool, then reads the tool's
// output from its next prompt: what the model gets is captured there.

import { after, before, test } from "node:test";
import { createMCPClient } from "@ai-sdk/mcp";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { throttleAwareClient } from "mcp-upstream-throttle/client";
import { checkHost } from "./checks.mjs";
import { startServers } from "./server.mjs";

let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `name` on its first step and, on the second, records the tool's output. */
function scriptedModel(name, seen) {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const results = prompt
        .filter((message) => message.role === "tool")
        .flatMap((message) => message.content);
      if (results.length === 0)
        return {
          content: [
            { type: "tool-call", toolCallId: "c1", toolName: name, input: '{"query":"q"}' },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        };
      seen.push(results.at(-1).output);
      return {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

test("generateText with the tools of throttleAwareClient(mcp).tools()", async () => {
  const events = [];
  const mcp = await createMCPClient({ transport: { type: "http", url: servers.url } });
  try {
    const tools = await throttleAwareClient(mcp, {
      onEvent: (event) => events.push(event),
    }).tools();
    const run = async (name, abortSignal) => {
      const seen = [];
      await generateText({
        model: scriptedModel(name, seen),
        tools,
        prompt: "Search.",
        stopWhen: stepCountIs(2),
        ...(abortSignal ? { abortSignal } : {}),
      });
      return seen[0];
    };
    const text = (output) => JSON.stringify(output ?? null);
    console.log(
      await checkHost("ai 6.0.325 + @ai-sdk/mcp 1.0.102", { servers, events, run, text }),
    );
  } finally {
    await mcp.close();
  }
});
