// The adapters' types: a tool array stays an array of the same tools, a record the same record,
// and `throttleAwareClient` takes the `Client | undefined` LangChain's `getClient` gives.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expectTypeOf, it } from "vitest";
import { throttleAwareClient, throttleAwareTools } from "../../src/client/index.js";

type VoltTool = {
  name: string;
  execute: (args: { query: string }, options?: unknown) => Promise<unknown>;
};

describe("adapter types", () => {
  it("keeps an array of tools an array of the same tools", () => {
    const tools: VoltTool[] = [];
    expectTypeOf(throttleAwareTools(tools)).toEqualTypeOf<VoltTool[]>();
  });

  it("keeps a record of tools the same record", () => {
    const tools: Record<"search", VoltTool> = {
      search: { name: "search", execute: async () => 1 },
    };
    expectTypeOf(throttleAwareTools(tools)).toEqualTypeOf<Record<"search", VoltTool>>();
  });

  it("gives a Client for a `Client | undefined`", () => {
    const maybe = undefined as Client | undefined;
    expectTypeOf(throttleAwareClient(maybe)).toEqualTypeOf<Client>();
  });

  it("rejects a `retryOnText` that is no boolean", () => {
    const tools: VoltTool[] = [];
    // @ts-expect-error `retryOnText` is a boolean
    throttleAwareTools(tools, { retryOnText: "yes" });
  });
});
