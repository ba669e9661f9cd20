// An AI SDK tool set from `@ai-sdk/mcp` (`await mcpClient.tools()`), read by shape: each tool's
// `execute(args, { abortSignal })` honours throttles. The tools share one cooldown, as they
// share one MCP server.

import { isAbortSignal } from "../call-args.js";
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
): Tools {
  if (typeof tools !== "object" || tools === null) {
    throw new TypeError("`tools` must be a tool set (an object of tools)");
  }
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError("`options` must be an object");
  }
  const execute = honorThrottles(
    async (name: string, input: unknown, callOptions: unknown) =>
      tools[name]?.execute?.(input, callOptions),
    {
      ...options,
      callKey: (name) => name,
      signal: (_name, _input, callOptions) => abortSignalOf(callOptions),
    },
  );
  const wrapped: Record<string, ExecutableTool> = Object.create(Object.getPrototypeOf(tools));
  for (const [name, tool] of Object.entries(tools)) {
    wrapped[name] =
      typeof tool?.execute === "function"
        ? // Of the tool's own class (Mastra's `Tool`), with its own fields and a new `execute`.
          Object.assign(Object.create(Object.getPrototypeOf(tool)), tool, {
            execute: (input: unknown, callOptions: unknown) => execute(name, input, callOptions),
          })
        : tool;
  }
  return wrapped as Tools;
}

function abortSignalOf(callOptions: unknown): AbortSignal | undefined {
  const signal =
    typeof callOptions === "object" && callOptions !== null
      ? (callOptions as { abortSignal?: unknown }).abortSignal
      : undefined;
  return isAbortSignal(signal) ? signal : undefined;
}
