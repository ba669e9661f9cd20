import { type Cooldown, cooldownFrom, type SharedCooldownOptions } from "../cooldown/cooldown.js";
import type { Recognition } from "../errors/recognize.js";
import { type RecognizeOptions, recognition, recognizeThrottle } from "../errors/recognize.js";
import { noteThrottle } from "../internal/call-notes.js";
import { callScope } from "../internal/call-scope.js";
import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import { hookProtocol, isProtocolLike, type ProtocolLike } from "./tools-call.js";

/** Options of `throttleServer`: how a throttle is named and shaped in the result. */
export type ThrottleServerOptions = Pick<
  RecognizeOptions,
  | "limit"
  | "defaultRetryAfterSeconds"
  | "maxRetryAfterSeconds"
  | "treat503AsThrottle"
  | "relayUpstreamText"
  | "upstreamText"
  | "credentials"
> & {
  /**
   * Tools whose own successes stand after a throttle (`true`: every tool's). A tool that
   * catches a throttle and answers from a cache looks, from outside, like one that returns the
   * 429 body as a success; by default both become the `rate_limited` result. Name the tools
   * that answer from a cache here, and what they return is what the client gets. A result
   * with `isError: true` is still replaced.
   */
  keepSuccesses?: boolean | readonly string[] | undefined;
  /**
   * Remember a throttle and answer later requests for the same upstream and credential inside
   * the delay without sending them: the cooldown of every door in the server's tool calls that
   * has none of its own (`throttleGlobalFetch`, `throttleAxios`, `throttledFetch`, `sdkFetch`),
   * keyed as `throttledFetch`'s is, by the credential the upstream request carries (a
   * server-wide key is one cooldown for every caller, a caller's own token that caller's).
   * The call is then answered with the `rate_limited` result, its upstream untouched.
   * @default false
   */
  cooldown?: boolean | SharedCooldownOptions | undefined;
  /** Told of cooldown hits and store failures of `cooldown` (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/observability.md). */
  onEvent?: ThrottleEventHook | undefined;
};

type AnyFunction = (...args: never[]) => unknown;

interface McpServerLike {
  server: ProtocolLike;
  registerTool: AnyFunction;
  executeToolHandler?: AnyFunction;
  _registeredTools?: Record<string, { outputSchema?: unknown } | undefined>;
}

interface FastMcpLike {
  addTool: (tool: object) => unknown;
  addTools?: (tools: object[]) => unknown;
  on: (event: string, listener: (event: { session?: { server?: unknown } }) => void) => unknown;
  sessions?: unknown;
}

const WHAT =
  "an McpServer (@modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x), a low-level Server, or a FastMCP instance";

/**
 * Makes every tool of an existing server throttle-aware in one call, before or after its tools
 * are registered: a throttle seen inside a tool call (by `throttledFetch`, `sdkFetch`,
 * `throttleGlobalFetch`, `throttleAxios`, or a recognised vendor SDK error it throws) reaches the
 * client as the `rate_limited` result, even when the tool's own code caught it, wrapped it in
 * another error, or returned the throttled body as a success; unless a later upstream answer in
 * the same call succeeded. Each tool's output schema decides where the error object goes.
 * Returns the server it was given.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { throttledFetch, throttleServer } from "mcp-upstream-throttle";
 *
 * const search = throttledFetch({ limit: "search" });
 * const server = throttleServer(new McpServer({ name: "search", version: "1.0.0" }));
 *
 * server.registerTool("search", { description: "Search the web" }, async () => {
 *   try {
 *     const response = await search("https://api.example.com/search?q=mcp");
 *     return { content: [{ type: "text", text: await response.text() }] };
 *   } catch (error) {
 *     // The server's own catch-all: the client still gets the rate_limited result.
 *     return { content: [{ type: "text", text: `Error: ${String(error)}` }], isError: true };
 *   }
 * });
 * ```
 */
export function throttleServer<Server extends object>(
  server: Server,
  options?: ThrottleServerOptions,
): Server {
  const settings = recognition(options);
  const keepsSuccess = keptSuccesses(options?.keepSuccesses);
  const cooldown = cooldownFrom(options?.cooldown, {
    source: "throttleServer",
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    onEvent: eventHook(options?.onEvent),
  });
  if (isMcpServer(server)) adoptMcpServer(server, settings, keepsSuccess, cooldown);
  else if (isProtocolLike(server))
    hookProtocol(server, { recognition: settings, keepsSuccess, cooldown });
  else if (isFastMcp(server)) adoptFastMcp(server, settings, keepsSuccess, cooldown);
  else throw new TypeError(`\`server\` must be ${WHAT}, got ${describe(server)}`);
  callScope();
  return server;
}

function isMcpServer(value: unknown): value is McpServerLike {
  const candidate = value as Partial<McpServerLike> | null | undefined;
  return typeof candidate?.registerTool === "function" && isProtocolLike(candidate.server);
}

function isFastMcp(value: unknown): value is FastMcpLike {
  const candidate = value as Partial<FastMcpLike> | null | undefined;
  return typeof candidate?.addTool === "function" && typeof candidate.on === "function";
}

/** `keepSuccesses` as a question about one tool; a wrong type throws, naming the option. */
function keptSuccesses(option: unknown): (tool: string) => boolean {
  if (option === undefined || option === false) return () => false;
  if (option === true) return () => true;
  if (Array.isArray(option) && option.every((name) => typeof name === "string")) {
    const names = new Set<string>(option);
    return (tool) => names.has(tool);
  }
  throw new TypeError("`keepSuccesses` must be a boolean or an array of tool names");
}

function adoptMcpServer(
  server: McpServerLike,
  settings: Recognition,
  keepsSuccess: (tool: string) => boolean,
  cooldown: Cooldown | undefined,
): void {
  const tools = () => server._registeredTools;
  hookProtocol(server.server, {
    recognition: settings,
    keepsSuccess,
    cooldown,
    registeredSchema: (name) => tools()?.[name]?.outputSchema,
  });
  // The McpServer turns whatever a tool throws into text before the protocol handler sees it:
  // a vendor SDK error it throws is recognised here, on its way to that catch-all.
  const execute = server.executeToolHandler;
  if (typeof execute !== "function" || noting.has(execute)) return;
  const wrapped = noteThrown(execute, settings);
  server.executeToolHandler = wrapped;
}

function adoptFastMcp(
  server: FastMcpLike,
  settings: Recognition,
  keepsSuccess: (tool: string) => boolean,
  cooldown: Cooldown | undefined,
): void {
  const hook = (session: unknown) => {
    const inner = (session as { server?: unknown } | null | undefined)?.server;
    if (isProtocolLike(inner))
      hookProtocol(inner, { recognition: settings, keepsSuccess, cooldown });
  };
  server.on("connect", (event) => hook(event?.session));
  if (Array.isArray(server.sessions)) for (const session of server.sessions) hook(session);
  // Tools added from now on have their thrown vendor SDK errors recognised; tools added before
  // are reached through the doors (fastmcp keeps its tool list private).
  const addTool = server.addTool.bind(server);
  server.addTool = (tool) => addTool(withNotedExecute(tool, settings));
  const addTools = server.addTools?.bind(server);
  if (addTools !== undefined) {
    server.addTools = (list) => addTools(list.map((tool) => withNotedExecute(tool, settings)));
  }
}

function withNotedExecute(tool: object, settings: Recognition): object {
  const execute = (tool as { execute?: unknown }).execute;
  if (typeof execute !== "function") return tool;
  return { ...tool, execute: noteThrown(execute as AnyFunction, settings) };
}

const noting = new WeakSet<AnyFunction>();

/** The same function, telling the call in progress of a throttle it throws. */
function noteThrown<F extends AnyFunction>(fn: F, settings: Recognition): F {
  const wrapped = async function (this: unknown, ...args: never[]) {
    try {
      return await fn.apply(this, args);
    } catch (error) {
      const throttle = recognizeThrottle(error, settings, undefined);
      if (throttle !== undefined) noteThrottle(throttle);
      throw error;
    }
  } as unknown as F;
  noting.add(wrapped);
  return wrapped;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? `a ${name}` : "an object";
}
