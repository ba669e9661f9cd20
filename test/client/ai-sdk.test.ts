// throttleAwareTools with the AI SDK's MCP client (@ai-sdk/mcp 1.0, the line for `ai` 6 on
// Node 20) over Streamable HTTP, against the real MCP server; and an `ai` 6 generateText loop
// with a scripted model (no network), to see what the model is given.

import { createMCPClient } from "@ai-sdk/mcp";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readThrottle, type ThrottleEvent, throttleAwareTools } from "../../src/client/index.js";
import { relayedResult } from "../helpers/throttle.js";
import { useServers } from "./helpers/use-servers.js";

type McpClient = Awaited<ReturnType<typeof createMCPClient>>;
type Tools = Awaited<ReturnType<McpClient["tools"]>>;

const servers = useServers();
let mcp: McpClient;
let tools: Tools;
let events: ThrottleEvent[];

beforeAll(async () => {
  mcp = await createMCPClient({ transport: { type: "http", url: servers.host.url } });
  tools = await mcp.tools();
});

afterAll(async () => {
  await mcp.close();
});

beforeEach(() => {
  events = [];
});

const honoured = () => throttleAwareTools(tools, { onEvent: (event) => events.push(event) });
const run = (set: Tools, name: string, abortSignal?: AbortSignal) =>
  set[name]?.execute?.(
    { query: "rate limits" },
    { toolCallId: "call-1", messages: [], ...(abortSignal ? { abortSignal } : {}) },
  ) as Promise<unknown>;

/** A model that calls `tool` once, then answers; it records the prompts it was given. */
function scriptedModel(tool: string) {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const seen = prompt.some((message) => message.role === "tool");
      return {
        content: seen
          ? [{ type: "text", text: "done" }]
          : [
              {
                type: "tool-call",
                toolCallId: "call-1",
                toolName: tool,
                input: '{"query":"rate limits"}',
              },
            ],
        finishReason: { unified: seen ? "stop" : "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** What the model was given as the tool's result. */
function toolOutput(model: MockLanguageModelV3): unknown {
  const last = model.doGenerateCalls.at(-1)?.prompt.find((message) => message.role === "tool");
  const part = last?.role === "tool" ? last.content[0] : undefined;
  return part?.type === "tool-result" ? part.output : undefined;
}

describe("@ai-sdk/mcp 1.0 with throttleAwareTools", () => {
  it("gets the whole result for a throttled tool: isError and structuredContent.error intact", async () => {
    const result = await run(tools, "lookup");
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { type: "rate_limited" } },
    });
  });

  it("returns a long one at once, as the server sent it, and keeps every other field of the tool", async () => {
    const set = honoured();
    const result = await run(set, "lookup");
    expect(result).toStrictEqual(
      relayedResult({
        limit: "lookup_rate_limit",
        retryAfterSeconds: 60,
        message: "This endpoint has been requested too many times. Try again later.",
      }),
    );
    const { execute: _wrapped, ...rest } = set.lookup as Tools[string];
    const { execute: _original, ...original } = tools.lookup as Tools[string];
    expect(rest).toStrictEqual(original);
  });

  it.each([
    ["an HTTP 429 whose body is the SEP-3304 error (MCPClientError statusCode 429)", 429],
    ["the server's in-band -32023 (MCPClientError code -32023, data.retryAfterMs)", 200],
  ] as const)("waits out %s and the retry succeeds", async (_case, status) => {
    servers.host.gate.refuse({ status, data: { retryAfterMs: 200 } });
    const result = await run(honoured(), "status");
    expect(readThrottle(result)).toBeUndefined();
    expect(events[0]).toMatchObject({ type: "throttle", limit: "mcp-server", retryAfterMs: 200 });
  });

  it("reads what the bare client throws for the server's own limit", async () => {
    servers.host.gate.refuse({ status: 429, data: { retryAfterMs: 200 } });
    const http = await run(tools, "status").catch((error: unknown) => error);
    servers.host.gate.refuse({ data: { retryAfterMs: 300 } });
    const inBand = await run(tools, "status").catch((error: unknown) => error);
    expect(http).toMatchObject({ name: "MCPClientError", statusCode: 429 });
    expect(readThrottle(http)).toStrictEqual({
      layer: "server",
      retryAfterMs: 200,
      source: "retryAfterMs",
    });
    expect(inBand).toMatchObject({ name: "MCPClientError", code: -32023 });
    expect(readThrottle(inBand)).toStrictEqual({
      layer: "server",
      retryAfterMs: 300,
      source: "retryAfterMs",
    });
  });

  it("ends a wait when the step's abortSignal aborts", async () => {
    const controller = new AbortController();
    const set = throttleAwareTools(tools, {
      onEvent: (event) => event.type === "retry" && controller.abort("step cancelled"),
    });
    await run(set, "search");
    await expect(run(set, "search", controller.signal)).rejects.toBe("step cancelled");
    expect(servers.upstream.requests.get("/search")).toBe(2);
  });

  it("in a generateText loop, the model is given only the text of a throttled result", async () => {
    const model = scriptedModel("lookup");
    await generateText({ model, tools, prompt: "Look it up.", stopWhen: stepCountIs(3) });
    expect(toolOutput(model)).toStrictEqual({
      type: "content",
      value: [
        {
          type: "text",
          text: 'Rate limited by lookup_rate_limit. Retry after 60 seconds. The upstream said: "This endpoint has been requested too many times. Try again later."',
        },
      ],
    });
  });

  it("in a generateText loop with throttleAwareTools, a short throttle is waited out and never reaches the model", async () => {
    await run(tools, "search");
    const model = scriptedModel("search");
    await generateText({ model, tools: honoured(), prompt: "Search.", stopWhen: stepCountIs(3) });
    expect(JSON.stringify(toolOutput(model))).toContain("first result");
    expect(servers.upstream.requests.get("/search")).toBe(3);
    expect(events.map((event) => event.type)).toStrictEqual(["throttle", "retry"]);
  });
});

describe("throttleAwareTools options", () => {
  it.each([
    [null, "`tools`"],
    ["tools", "`tools`"],
  ])("rejects %j as the tool set", (value, name) => {
    expect(() => throttleAwareTools(value as never)).toThrow(name);
  });

  it("rejects bad options at construction, naming the option", () => {
    expect(() => throttleAwareTools({}, { maxWaitMs: -5 })).toThrow("`maxWaitMs`");
    expect(() => throttleAwareTools({}, "fast" as never)).toThrow("`options`");
  });
});

/** Genkit 1.42's `ToolAction` (`await mcpHost.getActiveTools(ai)`), by shape: a callable action. */
function genkitToolAction(name: string) {
  const run = async (input: unknown) => ({ result: input, telemetry: { traceId: "", spanId: "" } });
  return Object.assign(async (input: unknown) => (await run(input)).result, {
    __action: { name, actionType: "tool", description: `The ${name} tool.`, metadata: {} },
    run,
    stream: () => ({ stream: (async function* () {})(), output: run(undefined) }),
  });
}

/** LlamaIndex's `FunctionTool` (`@llamaindex/core` 0.6, `await mcp({ url }).tools()`), by shape. */
class LlamaIndexFunctionTool {
  readonly #fn: (input: unknown) => unknown;
  readonly #metadata: { name: string; description: string; parameters: object };
  constructor(fn: (input: unknown) => unknown, metadata: { name: string; description: string }) {
    this.#fn = fn;
    this.#metadata = { ...metadata, parameters: { type: "object" } };
  }
  get metadata() {
    return this.#metadata;
  }
  bind = (_additionalArg: object) => this;
  call = (input: unknown) => this.#fn(input);
}

describe("throttleAwareTools given tools it cannot wrap", () => {
  it.each([
    [
      "Genkit's tool actions",
      () => [genkitToolAction("docs/search")],
      /Genkit.*throttleAwareTransport/,
    ],
    [
      "LlamaIndex's FunctionTools",
      () => [new LlamaIndexFunctionTool(async () => "3 hits", { name: "search", description: "" })],
      /LlamaIndex.*honorThrottles/,
    ],
  ])("refuses %s (no `execute`) with a TypeError naming what fits", (_case, make, fits) => {
    const given = make();
    expect(() => throttleAwareTools(given as never)).toThrow(TypeError);
    expect(() => throttleAwareTools(given as never)).toThrow(fits);
    expect(() => throttleAwareTools(given as never)).toThrow(/`execute\(input, options\)`/);
  });

  it("refuses LangChain's MCP tools (`invoke`), naming `loadMcpTools` over `throttleAwareClient`", async () => {
    const multi = new MultiServerMCPClient({
      mcpServers: { docs: { transport: "http", url: servers.host.url } },
    });
    try {
      const langchain = await multi.getTools();
      expect(() => throttleAwareTools(langchain as never)).toThrow(
        /LangChain.*loadMcpTools\(server, throttleAwareClient\(client\)\)/,
      );
    } finally {
      await multi.close();
    }
  });

  it("refuses a set none of whose tools has `execute`: nothing in it would honour throttles", () => {
    expect(() => throttleAwareTools({ search: { description: "Searches." } } as never)).toThrow(
      /no tool with an `execute\(input, options\)` function/,
    );
  });

  it("keeps a tool without `execute` beside MCP tools as it is (a tool the host runs itself)", async () => {
    const askUser = tool({
      description: "Asks the user.",
      inputSchema: jsonSchema({ type: "object" }),
    });
    const set = throttleAwareTools({ ...tools, askUser });
    expect(set.askUser).toBe(askUser);
    expect(readThrottle(await run(set as unknown as Tools, "search"))).toBeUndefined();
  });

  it("wraps nothing and refuses nothing for an empty set", () => {
    expect(throttleAwareTools({})).toStrictEqual({});
    expect(throttleAwareTools([])).toStrictEqual([]);
  });
});
