// The agent frameworks' own tools, as they hand them to their model, against the real MCP server
// over Streamable HTTP on 127.0.0.1: `@ai-sdk/mcp` 1.0.102 (`throttleAwareClient(mcp).tools()`),
// OpenAI Agents 0.14.3 (`throttleAwareMcpServer`, the tools `getAllMcpTools` builds), Mastra
// `@mastra/mcp` 0.14.5 (`throttleAwareTools(await mcp.getTools())`), LangChain's
// `MultiServerMCPClient` (`getClient` + `loadMcpTools`). Events are counted: the tools go through
// the wait and the cooldown, not only the object that was wrapped.

import { createMCPClient } from "@ai-sdk/mcp";
import { loadMcpTools, MultiServerMCPClient } from "@langchain/mcp-adapters";
import { Agent as MastraAgent } from "@mastra/core/agent";
import { MCPClient as MastraMCPClient } from "@mastra/mcp";
import { Agent, getAllMcpTools, MCPServerStreamableHttp, RunContext } from "@openai/agents";
import { beforeEach, describe, expect, it } from "vitest";
import {
  readThrottle,
  type ThrottleEvent,
  throttleAwareClient,
  throttleAwareMcpServer,
  throttleAwareTools,
} from "../../src/client/index.js";
import { useServers } from "./helpers/use-servers.js";

const servers = useServers();
let events: ThrottleEvent[];
const onEvent = (event: ThrottleEvent) => events.push(event);
const count = (type: ThrottleEvent["type"]) => events.filter((event) => event.type === type).length;
const args = { query: "rate limits" };
const LONG = "Rate limited by lookup_rate_limit. Retry after 60 seconds.";

beforeEach(() => {
  events = [];
});

/** Runs `call` and says whether the server saw a tools/call during it. */
async function served<T>(call: () => Promise<T>): Promise<{ value: T; reached: boolean }> {
  const before = servers.host.gate.toolCalls;
  const value = await call();
  return { value, reached: servers.host.gate.toolCalls > before };
}

describe("@ai-sdk/mcp 1.0.102: throttleAwareClient(mcp).tools()", () => {
  it("the tools `tools()` makes go through the wait and the cooldown; the signal in `options` is honoured", async () => {
    const mcp = await createMCPClient({ transport: { type: "http", url: servers.host.url } });
    try {
      const tools = await throttleAwareClient(mcp, { onEvent }).tools();
      const run = (name: string, abortSignal?: AbortSignal) =>
        tools[name]?.execute?.(args, {
          toolCallId: "c",
          messages: [],
          ...(abortSignal ? { abortSignal } : {}),
        }) as Promise<unknown>;
      await run("search");
      expect(readThrottle(await run("search"))).toBeUndefined();
      expect(count("retry")).toBe(1);
      expect(readThrottle(await run("lookup"))).toMatchObject({ limit: "lookup_rate_limit" });
      const cooled = await served(() => run("lookup"));
      expect(cooled.reached).toBe(false);
      expect(count("cooldown-hit")).toBe(1);
      expect(cooled.value).toMatchObject({ isError: true, content: [{ type: "text" }] });
      // The server's own 5 s limit, waited within a 10 s budget, ends with the caller's abort.
      servers.host.gate.refuse({ data: { retryAfterMs: 5_000 } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("stop")), 200);
      const started = performance.now();
      await expect(run("status", controller.signal)).rejects.toThrow("stop");
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await mcp.close();
    }
  });
});

describe("@openai/agents 0.14.3: throttleAwareMcpServer(new MCPServerStreamableHttp(…))", () => {
  it("the tools getAllMcpTools hands the agent's model go through the wait and the cooldown, in the SDK's text shape", async () => {
    const server = new MCPServerStreamableHttp({ url: servers.host.url, name: "docs" });
    await server.connect();
    try {
      expect(() => throttleAwareClient(server as never)).toThrow(/throttleAwareMcpServer/);
      const wrapped = throttleAwareMcpServer(server, { onEvent });
      const agent = new Agent({ name: "a", mcpServers: [wrapped] });
      const runContext = new RunContext({});
      const tools = await getAllMcpTools({ mcpServers: [wrapped], runContext, agent });
      const invoke = (name: string) => {
        const tool = tools.find((candidate) => candidate.name === name);
        if (tool === undefined || tool.type !== "function") throw new Error(`no tool ${name}`);
        return tool.invoke(runContext, JSON.stringify(args));
      };
      await invoke("search");
      await invoke("search");
      expect(count("retry")).toBe(1);
      // What the model gets: the content part of the error result, the exact sentence.
      const long = await invoke("lookup");
      expect(long).toStrictEqual({ type: "text", text: LONG });
      const cooled = await served(() => invoke("lookup"));
      expect(cooled.reached).toBe(false);
      expect(count("cooldown-hit")).toBe(1);
      expect(cooled.value).toMatchObject({
        type: "text",
        text: expect.stringMatching(
          /^Rate limited by lookup_rate_limit\. Retry after \d+ seconds\.$/,
        ),
      });
    } finally {
      await server.close();
    }
  });
});

describe("@mastra/mcp 0.14.5 + @mastra/core 0.24.9: throttleAwareTools(await mcp.getTools())", () => {
  it("waits out the short throttle; the model gets Mastra's { error } shape for the long one; no cooldown (isError is dropped)", async () => {
    const mcp = new MastraMCPClient({
      id: `mastra-${Math.random()}`,
      servers: { docs: { url: new URL(servers.host.url) } },
    });
    try {
      const original = await mcp.getTools();
      const tools = throttleAwareTools(original, { onEvent });
      // The tools keep their class.
      expect(Object.getPrototypeOf(tools.docs_search)).toBe(
        Object.getPrototypeOf(original.docs_search),
      );
      const run = (name: string) =>
        tools[name]?.execute?.(
          { context: args } as never,
          { toolCallId: "c", messages: [] } as never,
        );
      await run("docs_search");
      const short = await run("docs_search");
      expect(readThrottle(short)).toBeUndefined();
      expect(count("retry")).toBe(1);
      const long = await run("docs_lookup");
      expect(long).toMatchObject({ error: { type: "rate_limited", limit: "lookup_rate_limit" } });
      expect(long).not.toHaveProperty("isError");
      // `{ error }` alone may be content a tool relayed: it opens no cooldown (docs/host-side.md).
      const again = await served(() => run("docs_lookup"));
      expect(again.reached).toBe(true);
      expect(count("cooldown-hit")).toBe(0);
    } finally {
      await mcp.disconnect();
    }
  });
});

describe("@mastra/core 0.24.9 Agent: the abortSignal of agent.generate reaches the wait", () => {
  it("Mastra hands its tools the AI SDK's execute options, `abortSignal` included: an abort ends the wait and the retry is never sent", async () => {
    const mcp = new MastraMCPClient({
      id: `mastra-${Math.random()}`,
      servers: { docs: { url: new URL(servers.host.url) } },
    });
    try {
      const controller = new AbortController();
      const tools = throttleAwareTools(await mcp.getTools(), {
        onEvent: (event) => {
          onEvent(event);
          // The wait of a second has begun: the user stops the agent 100 ms into it.
          if (event.type === "retry") setTimeout(() => controller.abort(new Error("stop")), 100);
        },
      });
      const agent = new MastraAgent({
        name: "searcher",
        instructions: "Search.",
        // The AI SDK v2 model interface, which Mastra's own type narrows to its stream form.
        model: scriptedModel("docs_search") as never,
        tools,
      });
      // Spends the search's one call this second: the agent's call is throttled for a second.
      await tools.docs_search?.execute?.(
        { context: args } as never,
        { toolCallId: "c0", messages: [] } as never,
      );
      const before = servers.host.gate.toolCalls;
      const started = performance.now();
      // Mastra rejects with the abort's reason, which ended the wait.
      await expect(
        agent.generate("Search for rate limits.", { abortSignal: controller.signal }),
      ).rejects.toThrow("stop");
      expect(count("retry")).toBe(1);
      expect(performance.now() - started).toBeLessThan(900);
      // Had the wait gone on, its retry would have reached the server after the second.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(servers.host.gate.toolCalls).toBe(before + 1);
    } finally {
      await mcp.disconnect();
    }
  });
});

describe("@langchain/mcp-adapters 1.1.4: MultiServerMCPClient via getClient + loadMcpTools", () => {
  it("the tools go through the wait and the cooldown; the model gets LangChain's ToolException text both times", async () => {
    const multi = new MultiServerMCPClient({
      mcpServers: { docs: { transport: "http", url: servers.host.url } },
    });
    try {
      const client = await multi.getClient("docs");
      if (client === undefined) throw new Error("no client");
      const tools = await loadMcpTools("docs", throttleAwareClient(client, { onEvent }) as never);
      const invoke = (name: string) =>
        (tools.find((tool) => tool.name === name) as (typeof tools)[number])
          .invoke(args)
          .catch((error: unknown) => error);
      await invoke("search");
      expect(readThrottle(await invoke("search"))).toBeUndefined();
      expect(count("retry")).toBe(1);
      const long = await invoke("lookup");
      expect(long).toMatchObject({ name: "ToolException" });
      const cooled = await served(() => invoke("lookup"));
      expect(cooled.reached).toBe(false);
      expect(count("cooldown-hit")).toBe(1);
      expect(cooled.value).toMatchObject({ name: "ToolException" });
      expect(readThrottle(cooled.value)).toMatchObject({
        limit: "lookup_rate_limit",
        source: "text",
      });
    } finally {
      await multi.close();
    }
  });
});

/**
 * A scripted AI SDK v2 language model (what Mastra 0.24 runs): its first step calls `tool` with
 * `args`, every later one answers "done".
 */
function scriptedModel(tool: string) {
  let steps = 0;
  return {
    specificationVersion: "v2" as const,
    provider: "scripted",
    modelId: "scripted",
    supportedUrls: {},
    async doGenerate() {
      steps += 1;
      return {
        content:
          steps === 1
            ? [{ type: "tool-call", toolCallId: "c1", toolName: tool, input: JSON.stringify(args) }]
            : [{ type: "text", text: "done" }],
        finishReason: steps === 1 ? "tool-calls" : "stop",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        warnings: [],
      };
    },
    async doStream(): Promise<never> {
      throw new Error("the agent generates");
    },
  };
}
