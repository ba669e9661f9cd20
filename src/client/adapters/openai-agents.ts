// An OpenAI Agents (`@openai/agents`) MCP server — `MCPServerStreamableHttp`, `MCPServerStdio`,
// `MCPServerSSE`, or any object of the `MCPServer` interface — read by shape: a view of the same
// server whose `callTool` and `callToolResult` honour throttles. The agent's MCP tools call one
// or the other on the server they were given, so every path goes through the view.

import { honorThrottles } from "../honor.js";
import type { HonorThrottlesOptions } from "../options.js";

/** The part of an OpenAI Agents `MCPServer` this reads. */
export interface AgentsMcpServer {
  /** Calls a tool and resolves with its content, which the agent hands the model. */
  // biome-ignore lint/suspicious/noExplicitAny: `(toolName, args, meta?, { signal }?)` as each version types it
  callTool(...args: any[]): Promise<unknown>;
  /** Calls a tool and resolves with its whole result, `isError` and `_meta` included. */
  // biome-ignore lint/suspicious/noExplicitAny: the same arguments; resolves with the whole result
  callToolResult?(...args: any[]): Promise<unknown>;
}

/**
 * `server`, with `callToolResult` honouring throttles and `callTool` (which the agent uses by
 * default) answering the content of that same honoured call: the wait and the cooldown see the
 * whole result, and the model gets the content as it would for any tool error. One cooldown per
 * returned server. The key is the tool name (the first argument); the signal `{ signal }`.
 *
 * @example
 * ```ts
 * import { Agent, MCPServerStreamableHttp, run } from "@openai/agents";
 * import { throttleAwareMcpServer } from "mcp-upstream-throttle/client";
 *
 * const server = throttleAwareMcpServer(
 *   new MCPServerStreamableHttp({ url: "http://localhost:3000/mcp", name: "docs" }),
 *   { maxWaitMs: 5000 },
 * );
 * await server.connect();
 * const agent = new Agent({ name: "assistant", mcpServers: [server] });
 * const result = await run(agent, "Search the docs for rate limits");
 * ```
 */
export function throttleAwareMcpServer<Server extends AgentsMcpServer>(
  server: Server,
  options?: HonorThrottlesOptions<Parameters<Server["callTool"]>>,
): Server {
  if (
    typeof server !== "object" ||
    server === null ||
    typeof server.callTool !== "function" ||
    typeof server.callToolResult !== "function"
  ) {
    throw new TypeError(
      "`server` must be an OpenAI Agents MCP server with `callTool` and `callToolResult` (for an SDK client use `throttleAwareClient`)",
    );
  }
  const callToolResult = honorThrottles(
    (...args: Parameters<Server["callTool"]>) =>
      (server.callToolResult as (...a: unknown[]) => Promise<unknown>).apply(server, args),
    options,
  );
  const callTool = async (...args: Parameters<Server["callTool"]>) => {
    const result = (await callToolResult(...args)) as { content?: unknown } | undefined;
    return result?.content;
  };
  return new Proxy(server, {
    get(target, property) {
      if (property === "callToolResult") return callToolResult;
      if (property === "callTool") return callTool;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" && property !== "constructor" ? value.bind(target) : value;
    },
    set: (target, property, value) => Reflect.set(target, property, value, target),
  });
}
