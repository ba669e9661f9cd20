// Cloudflare `agents`' `MCPClientManager` (an `Agent`'s `this.mcp`), read by shape: the tools
// `getAITools()` makes call `this.callTool({ name, arguments, serverId })` on the object it ran
// on, so on the view they honour throttles: one cooldown per server the manager holds. Their
// `execute(args, { abortSignal })` drops the signal; the view hands it to the call it makes.

import { isObject } from "../../internal/is-object.js";
import { findSignal, signalOf } from "../call-args.js";
import { honorThrottles } from "../honor.js";
import type { HonorThrottlesOptions } from "../options.js";

/** The methods of `MCPClientManager` that make AI SDK tools calling `this.callTool`. */
export const TOOL_MAKERS: ReadonlySet<string> = new Set(["getAITools", "unstable_getAITools"]);

type CallTool = (...args: unknown[]) => Promise<unknown>;
type Method = (...args: unknown[]) => unknown;
type Tool = { execute?: unknown };

/** Whether `client` is Cloudflare's `MCPClientManager` (it has `getAITools` and `mcpConnections`). */
export function isClientManager(client: object): boolean {
  return (
    typeof (client as { getAITools?: unknown }).getAITools === "function" &&
    "mcpConnections" in client
  );
}

/**
 * The view's own members for a `MCPClientManager`: `callTool`, honouring throttles with one
 * cooldown per `serverId`, and the tool makers, run on the view, whose tools pass their
 * `abortSignal` to that `callTool`.
 */
export function clientManagerMembers(
  manager: { callTool: CallTool },
  options: HonorThrottlesOptions<unknown[]> | undefined,
): { callTool: CallTool; runOnView(maker: Method, view: object): Method } {
  const perServer = new Map<unknown, CallTool>();
  // The signal of the tool whose `execute` is running: agents 0.32's `execute` calls
  // `this.callTool(…)` before its first `await`, so the call takes it at once.
  let handed: AbortSignal | undefined;
  const callTool: CallTool = (...args) => {
    const signal = handed;
    handed = undefined;
    const [params] = args;
    const serverId = isObject(params) ? params.serverId : undefined;
    let call = perServer.get(serverId);
    if (call === undefined) {
      call = honorThrottles((...given: unknown[]) => manager.callTool(...given), options);
      perServer.set(serverId, call);
    }
    // `callTool(params, { signal })`: the manager passes the options on to the SDK client.
    return signal !== undefined && args.length <= 1 && findSignal(args) === undefined
      ? call(params, { signal })
      : call(...args);
  };
  const wrapTools = (tools: unknown): unknown => {
    if (!isObject(tools)) return tools;
    const wrapped: Record<string, unknown> = {};
    for (const [name, tool] of Object.entries(tools as Record<string, Tool | undefined>)) {
      const execute = tool?.execute;
      wrapped[name] =
        typeof execute !== "function"
          ? tool
          : {
              ...tool,
              execute(input: unknown, callOptions?: unknown) {
                handed = signalOf(callOptions);
                try {
                  const running = execute.call(tool, input, callOptions) as Promise<unknown>;
                  // A version whose tools call later than that: the abort ends `execute` here.
                  return handed === undefined ? running : settleOnAbort(running, handed);
                } finally {
                  handed = undefined;
                }
              },
            };
    }
    return wrapped;
  };
  const runOnView =
    (maker: Method, view: object): Method =>
    (...args) => {
      const tools: unknown = Reflect.apply(maker, view, args);
      // A version whose `getAITools` is async: its tool set, once it comes.
      return isObject(tools) && typeof tools.then === "function"
        ? (tools as unknown as Promise<unknown>).then(wrapTools)
        : wrapTools(tools);
    };
  return { callTool, runOnView };
}

/** `running`, or its caller's abort reason as soon as `signal` aborts. */
function settleOnAbort(running: Promise<unknown>, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
    running.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
