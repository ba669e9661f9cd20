// The AI SDK (`ai` 6 with `@ai-sdk/mcp` 1, `ai` 7 with `@ai-sdk/mcp` 2, whichever the project pins):
// `await throttleAwareClient(mcp).tools()` handed to a real `generateText` run whose scripted model
// (the release's mock, `MockLanguageModelV3` or `MockLanguageModelV4`) calls one tool, then reads
// the tool's output from its next prompt: what the model gets is captured there.

import { after, before, test } from "node:test";
import { createMCPClient } from "@ai-sdk/mcp";
import { generateText, stepCountIs } from "ai";
import * as aiTest from "ai/test";
import { throttleAwareClient } from "mcp-upstream-throttle/client";
import { checkHost, versionOf } from "./checks.mjs";
import { scriptedModel } from "./scripted-model.mjs";
import { startServers } from "./server.mjs";

// The mock of the model interface the release speaks (v4 in ai 7, v3 in ai 6).
const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3;
let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

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
        model: scriptedModel(MockLanguageModel, name, seen),
        tools,
        prompt: "Search.",
        stopWhen: stepCountIs(2),
        ...(abortSignal ? { abortSignal } : {}),
      });
      return seen[0];
    };
    const text = (output) => JSON.stringify(output ?? null);
    const label = `ai ${versionOf("ai")} + @ai-sdk/mcp ${versionOf("@ai-sdk/mcp")}`;
    console.log(await checkHost(label, { servers, events, run, text }));
  } finally {
    await mcp.close();
  }
});
