// An MCP transport (the SDK's `Transport` shape: `start`, `send`, `close`, `onmessage`) whose
// `tools/call` requests honour throttles. It sits below every client library built on such a
// transport, so whatever the library makes of a result — `{ error }` only (Mastra), a string
// (mcp-use), an exception (LangChain, Cloudflare) — it makes of the cooldown's answer too: the
// wait and the cooldown see the whole result, and the model gets the library's usual shape.
//
// A held request is sent again with its own id once the earlier answer came back (the server is
// done with that id). Every other message passes through untouched.

import { isObject } from "../../internal/is-object.js";
import { isThrottleCooldownError, RATE_LIMITED_CODE } from "../errors.js";
import { honorThrottles } from "../honor.js";
import type { HonorThrottlesOptions } from "../options.js";

/** The part of an MCP transport this reads: SDK 1.x and 2.x, `@ai-sdk/mcp`'s `MCPTransport`. */
export interface MessageTransport {
  /** Sends a JSON-RPC message to the server; a `tools/call` request is held here when throttled. */
  send(message: never, options?: never): Promise<void>;
  /** Set by the client to receive the server's messages; the view answers held requests through it. */
  // biome-ignore lint/suspicious/noExplicitAny: each SDK types its messages and extras its own way
  onmessage?: ((message: any, extra?: any) => void) | undefined;
}

/** Every option but the two the transport decides: the key is the tool name, the signal the request's own. */
export type ThrottleAwareTransportOptions = Omit<HonorThrottlesOptions, "callKey" | "signal">;

type Id = string | number;
interface Request {
  jsonrpc: "2.0";
  id: Id;
  method: string;
  params?: { name?: unknown };
}
interface Waiter {
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * `transport`, with `tools/call` requests that honour throttles (one cooldown per transport: one
 * server). Give it to a client where the framework takes a transport: the SDK's
 * `client.connect(…)`, Strands' `new McpClient({ transport })`, mcp-use's `wrapTransport`,
 * `@ai-sdk/mcp`'s `createMCPClient({ transport })`.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
 * import { throttleAwareTransport } from "mcp-upstream-throttle/client";
 *
 * const client = new Client({ name: "host", version: "1.0.0" });
 * const url = new URL("http://localhost:3000/mcp");
 * await client.connect(throttleAwareTransport(new StreamableHTTPClientTransport(url)));
 * const result = await client.callTool({ name: "search", arguments: { query: "mcp" } });
 * ```
 */
export function throttleAwareTransport<Transport extends MessageTransport>(
  transport: Transport,
  options?: ThrottleAwareTransportOptions,
): Transport {
  if (!isObject(transport) || typeof transport.send !== "function") {
    throw new TypeError(
      typeof (transport as { callTool?: unknown } | null)?.callTool === "function"
        ? "`transport` is an MCP client, not a transport: use `throttleAwareClient(client)`"
        : "`transport` must be an MCP transport with a `send` method",
    );
  }
  if (options !== undefined && !isObject(options)) {
    throw new TypeError("`options` must be an object");
  }
  const calls = new HeldCalls(
    (message, sendOptions) =>
      (transport.send as (message: unknown, options?: unknown) => Promise<void>).call(
        transport,
        message,
        sendOptions,
      ),
    options,
  );
  return new Proxy(transport, {
    get(target, property) {
      if (property === "send") return calls.send;
      if (property === "onmessage") return calls.deliver;
      if (property === "onclose") return calls.onclose;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, property, value) {
      if (property === "onclose") {
        calls.onclose = typeof value === "function" ? value : undefined;
        return Reflect.set(target, "onclose", calls.closing, target);
      }
      if (property !== "onmessage") return Reflect.set(target, property, value, target);
      calls.deliver = typeof value === "function" ? value : undefined;
      const intercept = calls.deliver === undefined ? undefined : calls.intercept;
      return Reflect.set(target, "onmessage", intercept, target);
    },
  });
}

type Send = (message: unknown, options?: unknown) => Promise<void>;

/** The `tools/call` requests of one transport: sent, waited on, held and answered here. */
class HeldCalls {
  /** Requests sent and not yet answered, by id. */
  readonly #waiting = new Map<Id, Waiter>();
  /** Requests held here (waited out or sent again), by id: aborted when the client cancels. */
  readonly #held = new Map<Id, AbortController>();
  /** The error responses a round trip rejected with, to hand on as they came. */
  readonly #errorResponses = new WeakSet<object>();
  readonly #send: Send;
  readonly #roundTrip: (
    request: Request,
    signal: AbortSignal,
    options: unknown,
  ) => Promise<unknown>;
  #closed = false;
  deliver: ((message: unknown, extra?: unknown) => void) | undefined;
  onclose: (() => void) | undefined;

  constructor(send: Send, options: ThrottleAwareTransportOptions | undefined) {
    this.#send = send;
    this.#roundTrip = honorThrottles(
      (request: Request, signal: AbortSignal, sendOptions: unknown) =>
        this.#sendAndWait(request, signal, sendOptions),
      {
        ...options,
        callKey: (request) =>
          typeof request.params?.name === "string" ? request.params.name : undefined,
        signal: (_request, signal) => signal,
      },
    );
  }

  /** A transport that closes answers nothing more: every request held here ends with it. */
  readonly closing = (): void => {
    this.#closed = true;
    const error = new Error("The MCP transport closed before the server answered");
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
    for (const controller of this.#held.values()) controller.abort(error);
    this.onclose?.();
  };

  readonly send = (message: unknown, sendOptions?: unknown): Promise<void> => {
    if (isToolCall(message)) {
      // A transport that closed and started again (a reconnect) holds requests again.
      this.#closed = false;
      return this.#hold(message, sendOptions);
    }
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) {
      this.#held.get(cancelled)?.abort(new Error("cancelled by the client"));
    }
    return this.#send(message, sendOptions);
  };

  readonly intercept = (message: unknown, extra?: unknown): void => {
    const id = responseId(message);
    const waiter = id === undefined ? undefined : this.#waiting.get(id);
    if (id === undefined || waiter === undefined) {
      this.deliver?.(message, extra);
      return;
    }
    this.#waiting.delete(id);
    if (isObject(message) && "error" in message) {
      this.#errorResponses.add(message);
      waiter.reject(message);
    } else waiter.resolve(isObject(message) ? message.result : undefined);
  };

  #sendAndWait(request: Request, signal: AbortSignal, sendOptions: unknown): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(request.id);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const done = () => signal.removeEventListener("abort", onAbort);
      this.#waiting.set(request.id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.#send(request, sendOptions).catch((error: unknown) => {
        done();
        this.#waiting.delete(request.id);
        reject(error);
      });
    });
  }

  async #hold(request: Request, sendOptions: unknown): Promise<void> {
    const controller = new AbortController();
    this.#held.set(request.id, controller);
    try {
      const result = await this.#roundTrip(request, controller.signal, sendOptions);
      this.deliver?.({ jsonrpc: "2.0", id: request.id, result });
    } catch (error) {
      if (isObject(error) && this.#errorResponses.has(error)) this.deliver?.(error);
      else if (isThrottleCooldownError(error)) {
        this.deliver?.({
          jsonrpc: "2.0",
          id: request.id,
          error: { code: RATE_LIMITED_CODE, message: error.message, data: error.data },
        });
      } else if (this.#closed || !controller.signal.aborted) throw error;
      // Cancelled by the client: it has stopped listening for this id.
    } finally {
      this.#held.delete(request.id);
    }
  }
}

function isToolCall(message: unknown): message is Request {
  return (
    isObject(message) &&
    message.method === "tools/call" &&
    (typeof message.id === "string" || typeof message.id === "number")
  );
}

/** The id of a response (a result or an error, no method). */
function responseId(message: unknown): Id | undefined {
  if (!isObject(message) || "method" in message) return undefined;
  if (!("result" in message) && !("error" in message)) return undefined;
  const { id } = message;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

function cancelledId(message: unknown): Id | undefined {
  if (!isObject(message) || message.method !== "notifications/cancelled") return undefined;
  const params = message.params;
  const id = isObject(params) ? params.requestId : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
