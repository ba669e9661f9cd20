// The docs' LangChain recipe, as a user writes it, typechecked against the installed
// @langchain/mcp-adapters 1.1.4 under the project's strict settings: no cast.

import { loadMcpTools, type MultiServerMCPClient } from "@langchain/mcp-adapters";
import { describe, expectTypeOf, it } from "vitest";
import { throttleAwareClient } from "../../src/client/index.js";

declare const multi: MultiServerMCPClient;

describe("the LangChain recipe", () => {
  it("compiles: loadMcpTools(name, throttleAwareClient(await multi.getClient(name)))", async () => {
    const name = "docs";
    const tools = await loadMcpTools(name, throttleAwareClient(await multi.getClient(name)));
    expectTypeOf(tools).toBeArray();
  });
});
