// What each adapter accepts and refuses: both signal spellings the frameworks use, tool arrays
// kept as arrays, and an object an adapter cannot wrap refused with a TypeError naming the one
// that can (never a silent bypass). VoltAgent's members are copied by shape from
// @voltagent/core 2.10.0 (`MCPClient.callTool` nests the result; `getAgentTools()` tools call
// `this.callTool` and hand back `result.content`, the whole result).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  honorThrottles,
  throttleAwareClient,
  throttleAwareTools,
  throttleAwareTransport,
} from "../../src/client/index.js";
import { rateLimitedResult } from "../../src/index.js";

const ok = { content: [{ type: "text", text: "3 hits" }] };
const throttled = () => rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 5 });

/** VoltAgent 2.10's `MCPClient`, by shape. */
class VoltMcpClient {
  calls = 0;
  async callTool(_toolCall: { name: string; arguments?: unknown }, _options?: unknown) {
    this.calls += 1;
    return { content: this.calls === 1 ? throttled() : ok };
  }
  async getAgentTools() {
    return {
      docs_search: {
        name: "docs_search",
        execute: async (args: unknown, _options?: unknown) =>
          (await this.callTool({ name: "search", arguments: args })).content,
      },
    };
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("signals, as each framework spells them", () => {
  it.each([
    ["@ai-sdk/mcp 2.x: callTool({ name, arguments, options: { signal } })", "signal"],
    ["@ai-sdk/mcp 1.x: callTool({ name, args, options: { abortSignal } })", "abortSignal"],
  ])("an abort ends the wait at once (%s)", async (_case, spelling) => {
    const controller = new AbortController();
    let calls = 0;
    const call = honorThrottles(async (_params: unknown) => {
      calls += 1;
      return throttled();
    });
    const options = { [spelling]: controller.signal };
    const pending = call({ name: "search", arguments: {}, options }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort("stop");
    await vi.advanceTimersByTimeAsync(0);
    expect(await pending).toBe("stop");
    expect(calls).toBe(1);
  });

  it("an options object's `abortSignal` ends a wait of callTool(params, { abortSignal })", async () => {
    const controller = new AbortController();
    const call = honorThrottles(async (_params: unknown, _options?: unknown) => throttled());
    const pending = call({ name: "search" }, { abortSignal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(100);
    controller.abort("stop");
    await vi.advanceTimersByTimeAsync(0);
    expect(await pending).toBe("stop");
  });
});

describe("throttleAwareTools over VoltAgent's tools", () => {
  it("keeps an array an array (`await mcpConfig.getTools()`), each tool honouring throttles", async () => {
    const client = new VoltMcpClient();
    const tools = Object.values(await client.getAgentTools());
    const wrapped = throttleAwareTools(tools);
    expect(Array.isArray(wrapped)).toBe(true);
    expect(wrapped.map((tool) => tool.name)).toStrictEqual(["docs_search"]);
    const pending = wrapped[0]?.execute({ query: "q" });
    await vi.advanceTimersByTimeAsync(6000);
    await expect(pending).resolves.toBe(ok);
    expect(client.calls).toBe(2);
  });

  it("runs each tool's own execute when two tools of an array share a name (two servers')", async () => {
    const tool = (from: string) => ({ name: "search", execute: async () => `from ${from}` });
    const [a, b] = throttleAwareTools([tool("a"), tool("b")]);
    await expect(a?.execute()).resolves.toBe("from a");
    await expect(b?.execute()).resolves.toBe("from b");
  });

  it("ends a wait on VoltAgent's `toolContext.abortSignal` and `abortController`", async () => {
    for (const make of [
      (c: AbortController) => ({ toolContext: { name: "docs_search", abortSignal: c.signal } }),
      (c: AbortController) => ({ abortController: c }),
    ]) {
      const client = new VoltMcpClient();
      const tools = throttleAwareTools(await client.getAgentTools());
      const controller = new AbortController();
      const pending = tools.docs_search
        .execute({ query: "q" }, make(controller))
        .catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      controller.abort("stop");
      await vi.advanceTimersByTimeAsync(0);
      expect(await pending).toBe("stop");
      expect(client.calls).toBe(1);
    }
  });
});

describe("what an adapter cannot wrap is refused, naming the one that can", () => {
  it("throttleAwareClient refuses VoltAgent's MCPClient, naming throttleAwareTools", () => {
    expect(() => throttleAwareClient(new VoltMcpClient())).toThrow(
      /VoltAgent.*throttleAwareTools\(await client\.getAgentTools\(\)\)/,
    );
  });

  it("throttleAwareClient refuses undefined (LangChain's getClient for an unknown name)", () => {
    expect(() => throttleAwareClient(undefined)).toThrow(TypeError);
    expect(() => throttleAwareClient(undefined)).toThrow("`client`");
  });

  it("throttleAwareTools refuses a client or a transport", () => {
    expect(() => throttleAwareTools(new VoltMcpClient() as never)).toThrow(/throttleAwareClient/);
    const transport = { send: async () => {}, start: async () => {} };
    expect(() => throttleAwareTools(transport as never)).toThrow(/throttleAwareTransport/);
  });

  it("throttleAwareTransport refuses a client, naming throttleAwareClient", () => {
    expect(() => throttleAwareTransport({ callTool: async () => ok } as never)).toThrow(
      /throttleAwareClient/,
    );
  });
});
