// The MCP SDK's `Client` (1.x `@modelcontextprotocol/sdk`, 2.x `@modelcontextprotocol/client`),
// read by shape: a thin view of the same client whose `callTool` honours throttles. Everything
// else is the client's own, called on the client itself (its private fields stay reachable).

import { honorThrottles } from "../honor.js";
import type { HonorThrottlesOptions } from "../options.js";

/** Anything with the SDK client's `callTool` (LangChain's `loadMcpTools` takes the same). */
export interface ToolCallingClient {
  /** Calls a tool; its result or error may carry a throttle. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDKs' own overloads differ; any call shape passes through
  callTool(...args: any[]): Promise<unknown>;
}

/**
 * `client`, with a `callTool` that honours throttles; one cooldown per returned client (one
 * server). The client itself is not changed: close, list, ping and the rest work on it as
 * before, through either reference.
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
export function throttleAwareClient<Client extends ToolCallingClient>(
  client: Client,
  options?: HonorThrottlesOptions<Parameters<Client["callTool"]>>,
): Client {
  if (typeof client !== "object" || client === null || typeof client.callTool !== "function") {
    throw new TypeError("`client` must be an MCP client with a `callTool` method");
  }
  const callTool = honorThrottles(
    (...args: Parameters<Client["callTool"]>) => client.callTool(...args),
    options,
  );
  const bound = new Map<PropertyKey, { method: unknown; bound: unknown }>();
  return new Proxy(client, {
    get(target, property) {
      if (property === "callTool") return callTool;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function" || property === "constructor") return value;
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
}
