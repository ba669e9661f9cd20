// The MCP SDK's `Client` (1.x `@modelcontextprotocol/sdk`, 2.x `@modelcontextprotocol/client`),
// read by shape: a thin view of the same client whose `callTool` honours throttles. Everything
// else is the client's own, called on the client itself (its private fields stay reachable).

import { honorThrottles } from "../honor.js";
import type { HonorThrottlesOptions } from "../options.js";
import { clientManagerMembers, isClientManager, TOOL_MAKERS } from "./cloudflare-agents.js";

/** Anything with the SDK client's `callTool` (LangChain's `loadMcpTools` takes the same). */
export interface ToolCallingClient {
  /** Calls a tool; its result or error may carry a throttle. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDKs' own overloads differ; any call shape passes through
  callTool(...args: any[]): Promise<unknown>;
}

/**
 * `@ai-sdk/mcp`'s `MCPClient`, whose public type has `tools()` but not the `callTool` its tools
 * call (present at run time, and checked there).
 */
export interface ToolMakingClient {
  /** Makes the client's tools, which call its `callTool`: run on the view, they honour throttles. */
  // biome-ignore lint/suspicious/noExplicitAny: the AI SDK's own options
  tools(...args: any[]): Promise<unknown>;
}

/** The arguments of the client's `callTool`, which `callKey` and `signal` are given. */
type CallToolArgs<Client> = Client extends ToolCallingClient
  ? Parameters<Client["callTool"]>
  : // biome-ignore lint/suspicious/noExplicitAny: `@ai-sdk/mcp`'s `callTool({ name, args, options })`
    any[];

/** Methods that make tools calling `this.callTool` (`@ai-sdk/mcp` 1.x `MCPClient`). */
const RUN_ON_VIEW: ReadonlySet<string> = new Set(["tools", "toolsFromDefinitions"]);

/**
 * Objects whose tools would not go through a wrapped `callTool`: refused at wrap time, naming
 * the adapter that covers every path: a wrapper that some paths would skip is refused, never silently bypassed.
 */
function refuseWhatBypasses(client: unknown): asserts client is ToolCallingClient {
  const has = (name: string) =>
    typeof client === "object" &&
    client !== null &&
    typeof (client as Record<string, unknown>)[name] === "function";
  if (has("callToolResult")) {
    throw new TypeError(
      "`client` is an OpenAI Agents MCP server (it has `callToolResult`): use `throttleAwareMcpServer(server)`",
    );
  }
  // Strands' `McpClient`: its tools keep `client: this` (the unwrapped client).
  if (
    typeof client === "object" &&
    client !== null &&
    "connectionState" in client &&
    "continueOnError" in client
  ) {
    throw new TypeError(
      "`client` is a Strands `McpClient`, whose tools call the client they came from: use `new McpClient({ transport: throttleAwareTransport(transport) })`",
    );
  }
  // VoltAgent's `MCPClient`: its `getAgentTools()` tools call the client they came from, and its
  // `callTool` nests the result (`{ content: result }`); the tools hand back the whole result.
  if (has("getAgentTools")) {
    throw new TypeError(
      "`client` is a VoltAgent `MCPClient`, whose tools call the client they came from: use `throttleAwareTools(await client.getAgentTools())` (or `throttleAwareTools(await mcpConfig.getTools())`)",
    );
  }
  if (!has("callTool") && has("send") && has("start")) {
    throw new TypeError(
      "`client` is an MCP transport, not a client: use `throttleAwareTransport(transport)` and connect the client to it",
    );
  }
  if (!has("callTool")) {
    throw new TypeError(
      "`client` must be an MCP client with a `callTool` method (for a framework's tool set use `throttleAwareTools`, for its transport `throttleAwareTransport`)",
    );
  }
}

/**
 * `client`, with a `callTool` that honours throttles; one cooldown per returned client (one
 * server). The client itself is not changed: close, list, ping and the rest work on it as
 * before, through either reference. `@ai-sdk/mcp`'s `tools()` runs on the view, so its tools
 * honour throttles too; so does Cloudflare `agents`' `MCPClientManager.getAITools()`, with one
 * cooldown per server the manager holds and each tool's `abortSignal` passed to its call. Objects whose tools would bypass a wrapped `callTool` (an OpenAI Agents
 * server, a Strands `McpClient`, a transport) are refused with a TypeError naming the adapter.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import { throttleAwareClient } from "mcp-upstream-throttle/client";
 *
 * const client = new Client({ name: "host", version: "1.0.0" });
 * await client.connect(new StdioClientTransport({ command: "node", args: ["server.js"] }));
 * const mcp = throttleAwareClient(client, { maxWaitMs: 5000 }); // same client, same methods
 * const result = await mcp.callTool({ name: "search", arguments: { query: "mcp" } });
 * ```
 */
export function throttleAwareClient<Client extends ToolCallingClient | ToolMakingClient>(
  // `| undefined`: LangChain's `await multi.getClient(name)` is typed so; it throws here.
  client: Client | undefined,
  options?: HonorThrottlesOptions<CallToolArgs<Client>>,
): Client {
  if (client === undefined) {
    throw new TypeError(
      "`client` is undefined: no client to wrap (LangChain's `multi.getClient(name)` gives none for a server name it does not know)",
    );
  }
  refuseWhatBypasses(client);
  const given = options as HonorThrottlesOptions<unknown[]> | undefined;
  // Cloudflare's `MCPClientManager` holds many servers: a cooldown per server, and tools whose
  // `abortSignal` reaches the call.
  const manager = isClientManager(client) ? clientManagerMembers(client, given) : undefined;
  const callTool =
    manager?.callTool ??
    honorThrottles((...args: unknown[]) => (client as ToolCallingClient).callTool(...args), given);
  const bound = new Map<PropertyKey, { method: unknown; bound: unknown }>();
  const view: Client = new Proxy(client, {
    get(target, property) {
      if (property === "callTool") return callTool;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function" || property === "constructor") return value;
      if (manager !== undefined && typeof property === "string" && TOOL_MAKERS.has(property)) {
        return manager.runOnView(value as (...args: unknown[]) => unknown, view);
      }
      // `@ai-sdk/mcp`'s tools call `self.callTool` where `self` is the object `tools()` ran on:
      // these run on the view, so the tools they make honour throttles too.
      if (typeof property === "string" && RUN_ON_VIEW.has(property)) return value;
      // Methods run on the client, not the proxy: private fields and `this` checks hold.
      const cached = bound.get(property);
      if (cached?.method === value) return cached.bound;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, { method: value, bound: method });
      return method;
    },
    // Setters (`onerror`, `onclose`, accessors) run on the client too.
    set: (target, property, value) => Reflect.set(target, property, value, target),
  });
  return view;
}
