// LangChain: `@langchain/mcp-adapters` 1.1.4 with `@langchain/core` 1.4.0 and `langchain` 1.5.14,
// `loadMcpTools(name, throttleAwareClient(await multi.getClient(name)))` from a
// `MultiServerMCPClient`. The tools are invoked as an agent's tool node invokes them (with the
// run's `signal` in the config); what the model gets is the tool's text or the ToolException's
// message, which LangChain turns into the tool message.

import { after, before, test } from "node:test";
import { loadMcpTools, MultiServerMCPClient } from "@langchain/mcp-adapters";
import { throttleAwareClient } from "mcp-upstream-throttle/client";
import { checkHost } from "./checks.mjs";
import { startServers } from "./server.mjs";

let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

test("the tools loadMcpTools makes from throttleAwareClient(await multi.getClient(name))", async () => {
  const events = [];
  const multi = new MultiServerMCPClient({
    mcpServers: { docs: { transport: "http", url: servers.url } },
  });
  try {
    const client = await multi.getClient("docs");
    if (client === undefined) throw new Error("no client");
    const tools = await loadMcpTools(
      "docs",
      throttleAwareClient(client, { onEvent: (event) => events.push(event) }),
    );
    const run = (name, signal) =>
      tools
        .find((tool) => tool.name === name)
        .invoke({ query: "q" }, signal ? { signal } : {})
        .catch((error) => {
          if (signal?.aborted) throw error;
          return error;
        });
    const text = (view) => (view instanceof Error ? `${view.name}: ${view.message}` : String(view));
    console.log(
      await checkHost("langchain 1.5.14 + @langchain/mcp-adapters 1.1.4", {
        servers,
        events,
        run,
        text,
      }),
    );
  } finally {
    await multi.close();
  }
});
