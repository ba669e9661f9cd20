// mcp-use 1.34.6 (`MCPAgent`): `new HttpConnector(url, { wrapTransport: (t) =>
// throttleAwareTransport(t) })`, connected and initialised by hand (MCPAgent does not initialise a
// direct connector), then the LangChain tools MCPAgent builds for its model, invoked as its agent
// invokes them. The model gets `JSON.stringify(result)`. mcp-use installs only with `langchain`
// beside it (its peer is marked optional, its code imports it), and brings a second
// `@modelcontextprotocol/sdk` and a second zod of its own. It gives its tools no signal: the
// abort does not reach the wait (bound it with `maxWaitMs`).

import { after, before, test } from "node:test";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { throttleAwareTransport } from "mcp-upstream-throttle/client";
import { HttpConnector, MCPAgent } from "mcp-use";
import { checkHost } from "./checks.mjs";
import { startServers } from "./server.mjs";

let servers;
before(async () => {
  servers = await startServers();
});
after(() => servers.close());

test("the tools MCPAgent builds over an HttpConnector whose transport is wrapped", async () => {
  const events = [];
  const connector = new HttpConnector(servers.url, {
    wrapTransport: (transport) =>
      throttleAwareTransport(transport, { onEvent: (event) => events.push(event) }),
  });
  await connector.connect();
  await connector.initialize();
  const agent = new MCPAgent({
    llm: new FakeListChatModel({ responses: ["done"] }),
    connectors: [connector],
    memoryEnabled: false,
  });
  await agent.initialize();
  try {
    const run = (name, signal) =>
      agent.tools
        .find((tool) => tool.name === name)
        .invoke({ query: "q" }, signal ? { signal } : {});
    const text = (view) => String(view);
    console.log(await checkHost("mcp-use 1.34.6", { servers, events, run, text, abort: false }));
  } finally {
    await agent.close();
  }
});
