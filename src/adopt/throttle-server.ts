import { type Cooldown, cooldownFrom, type SharedCooldownOptions } from "../cooldown/cooldown.js";
import type { Recognition } from "../errors/recognize.js";
import {
  recognition,
  recognizeThrottle,
  type ToUpstreamRateLimitedErrorOptions,
} from "../errors/recognize.js";
import { noteThrottle } from "../internal/call-notes.js";
import { callScope } from "../internal/call-scope.js";
import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import { assertAllAdopted, servedStatelessly } from "./fastmcp-stateless.js";
import {
  type Adoption,
  callHandler,
  hookProtocol,
  isProtocolLike,
  type ProtocolLike,
} from "./tools-call.js";

/** Options of `throttleServer`: how a throttle is named and shaped in the result. */
export type ThrottleServerOptions = Pick<
  ToUpstreamRateLimitedErrorOptions,
  | "limit"
  | "defaultRetryAfterSeconds"
  | "maxRetryAfterSeconds"
  | "treat503AsThrottle"
  | "relayUpstreamText"
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
  start?: (options?: unknown) => Promise<unknown>;
  connect?: (transport: object) => Promise<unknown>;
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
 * the same call succeeded. Each tool's output schema decides where the error object goes, also
 * on a server built per request whose `tools/list` another instance answered.
 * Returns the server it was given.
 *
 * On fastmcp, call it before `addTool` and before `start`: a stateless fastmcp (a session per
 * request) refuses to start when a tool was added before it, and a FastMCP already running is
 * refused, each naming why. A server it recognises but cannot hook throws, saying what is missing.
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
  else if (isFastMcp(server))
    adoptFastMcp(server, { recognition: settings, keepsSuccess, cooldown });
  else
    throw new TypeError(
      unhookable(server) ?? `\`server\` must be ${WHAT}, got ${describe(server)}`,
    );
  callScope();
  return server;
}

/** Why a server of a shape this library knows cannot be hooked, if it is one. */
function unhookable(value: unknown): string | undefined {
  const candidate = value as
    | { registerTool?: unknown; server?: unknown; setRequestHandler?: unknown }
    | null
    | undefined;
  if (typeof candidate !== "object" || candidate === null) return undefined;
  if (typeof candidate.registerTool === "function" && typeof candidate.server === "object") {
    return "`server` looks like an McpServer, but its protocol object (`server.server`) has no `_requestHandlers` map to hook: an SDK version this library does not know. Wrap each tool with `withUpstreamThrottle` instead";
  }
  if (typeof candidate.setRequestHandler === "function") {
    return "`server` looks like a low-level Server, but has no `_requestHandlers` map to hook: an SDK version this library does not know. Wrap the `tools/call` handler with `withUpstreamThrottle` instead";
  }
  return undefined;
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
    registered: (name) => {
      const registry = tools();
      if (typeof registry !== "object" || registry === null || !Object.hasOwn(registry, name))
        return undefined;
      const entry = registry[name];
      return typeof entry === "object" && entry !== null ? entry : undefined;
    },
  });
  // The McpServer turns whatever a tool throws into text before the protocol handler sees it:
  // a vendor SDK error it throws is recognised here, on its way to that catch-all.
  const execute = server.executeToolHandler;
  if (typeof execute !== "function" || noting.has(execute)) return;
  const wrapped = noteThrown(execute, settings);
  server.executeToolHandler = wrapped;
}

const fastMcpAdopted = new WeakSet<object>();

function adoptFastMcp(server: FastMcpLike, adoption: Adoption): void {
  if (fastMcpAdopted.has(server)) return;
  // Sessions made before cannot be reached (a stateless server keeps none); nor can their
  // tools be told from tools added later.
  if ((server as { serverState?: unknown }).serverState === "running") {
    throw new TypeError(
      "`server` is a FastMCP that is already running: call `throttleServer` before `start` or `connect`, so every session it makes is adopted",
    );
  }
  fastMcpAdopted.add(server);
  // Each tool added from now on is adopted at its own `execute`, which every session runs:
  // stateless ones (a session per request, never announced), stdio, stateful, and each
  // session's first call; its output schema is the tool's own, no `tools/list` needed.
  const adopted = new Set<string>();
  const adopt = (tool: object) => {
    const name = (tool as { name?: unknown }).name;
    if (typeof name === "string") adopted.add(name);
    return adoptedTool(tool, adoption);
  };
  const addTool = server.addTool.bind(server);
  server.addTool = (tool) => addTool(adopt(tool));
  const addTools = server.addTools?.bind(server);
  if (addTools !== undefined) server.addTools = (list) => addTools(list.map(adopt));
  // Tools added before are reached through the sessions fastmcp announces (stdio, stateful
  // HTTP, `connect`); fastmcp keeps its tool list private.
  const hook = (session: unknown) => {
    const inner = (session as { server?: unknown } | null | undefined)?.server;
    if (isProtocolLike(inner)) hookProtocol(inner, adoption);
  };
  server.on("connect", (event) => hook(event?.session));
  if (Array.isArray(server.sessions)) for (const session of server.sessions) hook(session);
  // A stateless start announces no session: a tool added before could not be reached, so
  // `start` refuses it, naming the tools, instead of serving them unadopted.
  const start = server.start?.bind(server);
  if (start !== undefined) {
    server.start = async (options?: unknown) => {
      if (servedStatelessly(options)) await assertAllAdopted(server, adopted);
      return start(options);
    };
  }
}

/** The tool, its `execute` run as one adopted call, placed by the tool's own output schema. */
function adoptedTool(tool: object, adoption: Adoption): object {
  const execute = (tool as { execute?: unknown }).execute;
  if (typeof execute !== "function") return tool;
  const name = (tool as { name?: unknown }).name;
  const request = { params: { name: typeof name === "string" ? name : "" } };
  const schema = (tool as { outputSchema?: unknown }).outputSchema;
  const run = callHandler(
    (_request, args) => execute.apply(tool, args as unknown[]),
    adoption,
    () => schema,
  );
  return { ...tool, execute: (...args: unknown[]) => run(request, args) };
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
