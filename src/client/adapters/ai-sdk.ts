// An AI SDK tool set from `@ai-sdk/mcp` (`await mcpClient.tools()`), read by shape: each tool's
// `execute(args, { abortSignal })` honours throttles. A tool set does not say which of its tools
// share a server, so each tool has its own cooldown: a server's refusal holds back the tool that
// got it, never the tools of another server merged into the same set.

import { isObject } from "../../internal/is-object.js";
import { signalOf } from "../call-args.js";
import { honorThrottles } from "../honor.js";
import { type HonorThrottlesOptions, honorSettings } from "../options.js";

// biome-ignore lint/suspicious/noExplicitAny: the AI SDK's execute takes the tool's own input type
type Execute = (input: any, options: any) => unknown;

/** The part of an AI SDK tool this reads. */
export interface ExecutableTool {
  /**
   * The tool's `execute(input, { abortSignal, … })`. A tool without one (a tool the host runs
   * itself, a provider's tool) is kept as it is.
   */
  execute?: Execute | undefined;
}

/**
 * Every option of `honorThrottles` but the two the tool set decides: the key is the tool's name,
 * the signal `abortSignal`.
 */
export type ThrottleAwareToolsOptions = Omit<HonorThrottlesOptions, "callKey" | "signal">;

/**
 * A copy of `tools` whose `execute` functions honour throttles: an AI SDK tool set
 * (`@ai-sdk/mcp`), Mastra's `await mcp.getTools()`, VoltAgent's `await mcpConfig.getTools()`.
 * (For Cloudflare's `getAITools()` use `throttleAwareClient(this.mcp).getAITools()`: its tools
 * keep only the text, which opens no cooldown here.) The tools themselves are not changed; each
 * copy keeps its class and every other field (schemas, `toModelOutput`, `_meta`).
 *
 * Each tool has its own cooldown: a tool set does not say which tools share a server, so an MCP
 * server's refusal holds back only the tool it answered. For one cooldown per server (a server's
 * refusal holding all its tools), make each client's tools with `throttleAwareClient(mcp).tools()`.
 *
 * A set with no `execute` at all, or holding another framework's tools (Genkit's tool actions,
 * LlamaIndex's `call`, LangChain's `invoke`), is refused with a TypeError naming what fits.
 *
 * @example
 * ```ts
 * import { createMCPClient } from "@ai-sdk/mcp";
 * import { throttleAwareTools } from "mcp-upstream-throttle/client";
 *
 * const url = "http://127.0.0.1:3000/mcp";
 * const mcp = await createMCPClient({ transport: { type: "http", url } });
 * const tools = throttleAwareTools(await mcp.tools(), { maxWaitMs: 5000 });
 * // Pass `tools` to generateText / streamText as before.
 * ```
 */
export function throttleAwareTools<Tools extends Record<string, ExecutableTool>>(
  tools: Tools,
  options?: ThrottleAwareToolsOptions,
): Tools;
/** An array of tools (VoltAgent's `await mcpConfig.getTools()`): an array back, keyed by `name`. */
export function throttleAwareTools<Tools extends readonly ExecutableTool[]>(
  tools: Tools,
  options?: ThrottleAwareToolsOptions,
): Tools;
export function throttleAwareTools(
  tools: Record<string, ExecutableTool> | readonly ExecutableTool[],
  options?: ThrottleAwareToolsOptions,
): unknown {
  refuseWhatIsNoToolSet(tools);
  // Checked once here, so a bad option throws even for a set with no tools.
  honorSettings(options);
  const entries: [string, unknown][] = Array.isArray(tools)
    ? tools.map((tool: unknown, index) => [toolNameOf(tool) ?? String(index), tool])
    : Object.entries(tools);
  refuseOtherFrameworksTools(entries);
  const copy = ([name, tool]: [string, unknown]): unknown => {
    if (!hasExecute(tool)) return tool;
    const { execute } = tool;
    const honoured = honorThrottles(
      async (input: unknown, callOptions: unknown) => execute.call(tool, input, callOptions),
      {
        ...options,
        callKey: () => name,
        signal: (_input, callOptions) => executeSignal(callOptions),
      },
    );
    // Of the tool's own class (Mastra's `Tool`), with its own fields and a new `execute`.
    return Object.assign(Object.create(Object.getPrototypeOf(tool)), tool, { execute: honoured });
  };
  if (Array.isArray(tools)) return entries.map(copy);
  const wrapped: Record<string, unknown> = Object.create(Object.getPrototypeOf(tools));
  for (const entry of entries) wrapped[entry[0]] = copy(entry);
  return wrapped;
}

function hasExecute(tool: unknown): tool is { execute: Execute } {
  return isObject(tool) && typeof tool.execute === "function";
}

/** Tools of other frameworks, by what they are called with, and what fits each. */
const OTHER_TOOLS: readonly { is: (tool: unknown) => boolean; what: string; fits: string }[] = [
  {
    is: (tool) => typeof tool === "function" && isObject((tool as { __action?: unknown }).__action),
    what: "a Genkit tool action",
    fits: "connect Genkit's MCP client through `throttleAwareTransport(transport)` (`mcpServer: { transport }`), or define the tools over `honorThrottles(client.callTool.bind(client))`",
  },
  // Before LlamaIndex's: a LangChain tool has `call` and `metadata` too.
  {
    is: (tool) => isObject(tool) && typeof tool.invoke === "function",
    what: "a LangChain tool (it has `invoke`)",
    fits: "load the tools with `loadMcpTools(server, throttleAwareClient(client))`",
  },
  {
    is: (tool) => isObject(tool) && typeof tool.call === "function" && "metadata" in tool,
    what: "a LlamaIndex tool (it has `call`)",
    fits: "make the tools with `tool({ …, execute })` over `honorThrottles(client.callTool.bind(client))` of your own SDK client",
  },
];

/**
 * Tools this would pass through untouched although they call an MCP server (they have no
 * `execute`): refused, never silently left unguarded.
 */
function refuseOtherFrameworksTools(entries: readonly [string, unknown][]): void {
  for (const [name, tool] of entries) {
    if (hasExecute(tool)) continue;
    const other = OTHER_TOOLS.find(({ is }) => is(tool));
    if (other === undefined) continue;
    throw new TypeError(
      `\`tools\` holds ${other.what} (\`${name}\`): \`throttleAwareTools\` wraps tools with an \`execute(input, options)\` function (the AI SDK, Mastra, VoltAgent). For these, ${other.fits}`,
    );
  }
  if (entries.length > 0 && !entries.some(([, tool]) => hasExecute(tool))) {
    throw new TypeError(
      "`tools` has no tool with an `execute(input, options)` function, so nothing in it would honour throttles: `throttleAwareTools` wraps AI SDK, Mastra and VoltAgent tools (for an MCP client use `throttleAwareClient`, for a transport `throttleAwareTransport`, for a tool call of your own `honorThrottles`)",
    );
  }
}

/** What is a client or a transport, not a tool set, is refused naming the adapter for it. */
function refuseWhatIsNoToolSet(tools: unknown): void {
  if (typeof tools !== "object" || tools === null) {
    throw new TypeError("`tools` must be a tool set (an object or an array of tools)");
  }
  const has = (name: string) => typeof (tools as Record<string, unknown>)[name] === "function";
  if (has("callTool") || has("tools") || has("getAgentTools")) {
    throw new TypeError(
      "`tools` is an MCP client, not a tool set: use `throttleAwareClient(client)`, or pass the tools it makes",
    );
  }
  if (has("send")) {
    throw new TypeError("`tools` is an MCP transport: use `throttleAwareTransport(transport)`");
  }
}

function toolNameOf(tool: unknown): string | undefined {
  const name = isObject(tool) ? tool.name : undefined;
  return typeof name === "string" ? name : undefined;
}

/**
 * The signal of an `execute(input, options)` call, as each framework spells it: the AI SDK's
 * `abortSignal` (or `signal`), VoltAgent's `toolContext.abortSignal` or `abortController.signal`.
 */
function executeSignal(callOptions: unknown): AbortSignal | undefined {
  if (!isObject(callOptions)) return undefined;
  try {
    const { toolContext, abortController } = callOptions;
    return (
      signalOf(callOptions) ??
      signalOf(toolContext) ??
      (isObject(abortController) ? signalOf(abortController) : undefined)
    );
  } catch {
    return undefined;
  }
}
