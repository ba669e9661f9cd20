// An AI SDK tool set from `@ai-sdk/mcp` (`await mcpClient.tools()`), read by shape: each tool's
// `execute(args, { abortSignal })` honours throttles. The tools share one cooldown, as they
// share one MCP server.

import { isObject } from "../../internal/is-object.js";
import { signalOf } from "../call-args.js";
import { honorThrottles } from "../honor.js";
import type { HonorThrottlesOptions } from "../options.js";

/** The part of an AI SDK tool this reads. */
export interface ExecutableTool {
  /** The tool's `execute(input, { abortSignal, … })`; a tool without one is kept as it is. */
  // biome-ignore lint/suspicious/noExplicitAny: the AI SDK's execute takes the tool's own input type
  execute?: ((input: any, options: any) => unknown) | undefined;
}

/**
 * Every option of `honorThrottles` but the two the tool set decides: the key is the tool's name,
 * the signal `abortSignal`.
 */
export type ThrottleAwareToolsOptions = Omit<HonorThrottlesOptions, "callKey" | "signal">;

/**
 * A copy of `tools` whose `execute` functions honour throttles: an AI SDK tool set
 * (`@ai-sdk/mcp`), Mastra's `await mcp.getTools()`. (For Cloudflare's `getAITools()` use
 * `throttleAwareClient(this.mcp).getAITools()`: its tools keep only the text, which opens no
 * cooldown here.) The tools
 * themselves are not changed; each copy keeps its class and every other field (schemas,
 * `toModelOutput`, `_meta`).
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
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError("`options` must be an object");
  }
  const entries: [string, ExecutableTool][] = Array.isArray(tools)
    ? tools.map((tool: ExecutableTool, index) => [toolNameOf(tool) ?? String(index), tool])
    : Object.entries(tools);
  const byName = new Map(entries);
  const execute = honorThrottles(
    async (name: string, input: unknown, callOptions: unknown) =>
      byName.get(name)?.execute?.(input, callOptions),
    {
      ...options,
      callKey: (name) => name,
      signal: (_name, _input, callOptions) => executeSignal(callOptions),
    },
  );
  const copy = ([name, tool]: [string, ExecutableTool]): ExecutableTool =>
    typeof tool?.execute === "function"
      ? // Of the tool's own class (Mastra's `Tool`), with its own fields and a new `execute`.
        Object.assign(Object.create(Object.getPrototypeOf(tool)), tool, {
          execute: (input: unknown, callOptions: unknown) => execute(name, input, callOptions),
        })
      : tool;
  if (Array.isArray(tools)) return entries.map(copy);
  const wrapped: Record<string, ExecutableTool> = Object.create(Object.getPrototypeOf(tools));
  for (const entry of entries) wrapped[entry[0]] = copy(entry);
  return wrapped;
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
