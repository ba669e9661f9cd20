// The Worker: an `Agent` (a Durable Object) whose `this.mcp` connects to the MCP server of
// server.mjs on 127.0.0.1 and hands `getAITools()` to its model. `run` calls a tool's `execute`
// as the AI SDK does (`execute(input, { toolCallId, messages, abortSignal })`) and reports what
// the model would be given: the result, or the error `execute` threw.
import { Agent, getAgentByName } from "agents";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { throttleAwareClient } from "mcp-upstream-throttle/client";

export class Host extends Agent {
  events = [];
  /** The one line: a view of `this.mcp` whose `getAITools()` tools honour throttles. */
  mcpView = throttleAwareClient(this.mcp, {
    maxWaitMs: 5_000,
    onEvent: (event) => this.events.push(event.type),
  });

  // Not `connect`: a Durable Object stub's `connect()` is the sockets API.
  async addServer(url, id) {
    const added = await this.addMcpServer(id, url, {
      id,
      transport: { type: "streamable-http" },
    });
    return { state: added.state, tools: Object.keys(this.mcpView.getAITools()).sort() };
  }

  /** One AI SDK `generateText` run that calls `name`: what the model was given as its result. */
  async converse(recipe, name) {
    const tools = recipe === "raw" ? this.mcp.getAITools() : this.mcpView.getAITools();
    const model = scriptedModel(`tool_frameworks_${name}`);
    const events = this.events.length;
    await generateText({ model, tools, prompt: "Look it up.", stopWhen: stepCountIs(2) });
    const tool = model.doGenerateCalls.at(-1)?.prompt.find((message) => message.role === "tool");
    return { output: tool?.content[0]?.output, events: this.events.slice(events) };
  }

  /** `recipe`: "view" (through the adapter) or "raw" (`this.mcp.getAITools()` as it is). */
  async run(recipe, name, { abortAfterMs, server = "frameworks" } = {}) {
    const tools = recipe === "raw" ? this.mcp.getAITools() : this.mcpView.getAITools();
    const controller = new AbortController();
    if (abortAfterMs !== undefined) {
      setTimeout(() => controller.abort(new Error("stopped by the host")), abortAfterMs);
    }
    const started = Date.now();
    const events = this.events.length;
    try {
      const result = await tools[`tool_${server}_${name}`].execute(
        { query: "rate limits" },
        { toolCallId: "call-1", messages: [], abortSignal: controller.signal },
      );
      return { ok: true, result, ms: Date.now() - started, events: this.events.slice(events) };
    } catch (error) {
      return {
        ok: false,
        error: { class: error?.constructor?.name, message: String(error?.message) },
        ms: Date.now() - started,
        events: this.events.slice(events),
      };
    }
  }
}

/** A model that calls `tool` once, then answers; its prompts are recorded. */
function scriptedModel(tool) {
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
          : [{ type: "tool-call", toolCallId: "call-1", toolName: tool, input: '{"query":"q"}' }],
        finishReason: { unified: seen ? "stop" : "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

export default {
  async fetch(request, env) {
    const { method, args } = await request.json();
    const agent = await getAgentByName(env.Host, "host");
    try {
      return Response.json(await agent[method](...args));
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
