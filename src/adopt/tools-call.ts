// The one place every adopted server goes through: the low-level protocol object's `tools/call`
// handler (the SDK's `Server`, the one inside an `McpServer`, a fastmcp session's). Each call
// runs in its own record; when the handler is done, a throttle the doors saw (and no upstream
// answer after it) becomes the rate_limited result, whatever the tool's code made of it.

import { isRateLimitedResult, type RateLimitedToolResult } from "../contract/result.js";
import { type Recognition, recognizeThrottle } from "../errors/recognize.js";
import { relayedThrottleOf } from "../errors/relayed-result.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { outputSchemaAdmits } from "../wrappers/output-schema.js";
import { CallRecord, callScope } from "./call-scope.js";

type RequestHandler = (request: unknown, extra: unknown) => unknown;

/** The SDK's `Protocol` as far as it is read: its handlers by method, and how they are set. */
export interface ProtocolLike {
  _requestHandlers: Map<string, RequestHandler>;
  setRequestHandler: (...args: never[]) => unknown;
}

/** What an adopted server knows besides its protocol object. */
export interface Adoption {
  recognition: Recognition;
  /** Whether a tool's own success stands after a throttle (`keepSuccesses`). */
  keepsSuccess: (tool: string) => boolean;
  /** The output schema a tool was registered with, when the framework keeps it readable. */
  registeredSchema?: ((name: string) => unknown) | undefined;
}

const hooked = new WeakSet<object>();
const ours = new WeakSet<RequestHandler>();

export function isProtocolLike(value: unknown): value is ProtocolLike {
  const candidate = value as Partial<ProtocolLike> | null | undefined;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate._requestHandlers instanceof Map &&
    typeof candidate.setRequestHandler === "function"
  );
}

/**
 * Wraps the protocol's `tools/call` and `tools/list` handlers now, and every later one: a
 * framework sets its `tools/call` handler when its first tool is registered, which may come
 * after adoption.
 */
export function hookProtocol(protocol: ProtocolLike, adoption: Adoption): void {
  if (hooked.has(protocol)) return;
  hooked.add(protocol);
  // What the client was told of each tool's output schema: the schema it may validate against.
  const listed = new Map<string, unknown>();
  const schemaOf = (name: string) => adoption.registeredSchema?.(name) ?? listed.get(name);
  const wrapAll = () => {
    wrap(protocol, "tools/call", (inner) => callHandler(inner, adoption, schemaOf));
    wrap(protocol, "tools/list", (inner) => listHandler(inner, listed));
  };
  wrapAll();
  const set = protocol.setRequestHandler;
  protocol.setRequestHandler = function setRequestHandler(this: unknown, ...args: never[]) {
    const outcome = set.apply(this, args);
    wrapAll();
    return outcome;
  };
}

function wrap(
  protocol: ProtocolLike,
  method: string,
  make: (inner: RequestHandler) => RequestHandler,
): void {
  const inner = protocol._requestHandlers.get(method);
  if (typeof inner !== "function" || ours.has(inner)) return;
  const outer = make(inner);
  ours.add(outer);
  protocol._requestHandlers.set(method, outer);
}

function callHandler(
  inner: RequestHandler,
  { recognition, keepsSuccess }: Adoption,
  schemaOf: (name: string) => unknown,
): RequestHandler {
  return async (request, extra) => {
    const record = new CallRecord();
    const name = toolName(request);
    let result: unknown;
    try {
      result = await callScope().run(record, async () => inner(request, extra));
    } catch (error) {
      record.close();
      // A throttle thrown out of the handler (the SDK would send it as -32603), else the last
      // one the doors saw; anything else is the server's own error and goes on unchanged.
      const throttle =
        recognizeThrottle(error, recognition, undefined) ?? lastThrottle(record, recognition);
      if (throttle === undefined) throw error;
      return resultFor(throttle, recognition, schemaOf(name));
    }
    // What the handler awaited settled the call: a request it left running cannot change it.
    record.close();
    // Only a result the library built in this call is passed on as its own. One that merely
    // looks like it (an upstream's JSON a tool relays) is an upstream value: read by the same
    // rules, unless a door saw the throttle itself.
    const vouched = (copy: object) => record.vouchesFor(copy);
    const relayed = relayedThrottleOf(result, recognition, extra, vouched);
    if (relayed !== undefined) {
      const throttle = lastThrottle(record, recognition) ?? relayed;
      return resultFor(throttle, recognition, schemaOf(name));
    }
    // A rate_limited result left here is the library's own, and goes on as it is.
    if (record.last === undefined || isRateLimitedResult(result)) return result;
    if (keepsSuccess(name) && !isErrorResult(result)) return result;
    const throttle = lastThrottle(record, recognition);
    return throttle === undefined ? result : resultFor(throttle, recognition, schemaOf(name));
  };
}

function listHandler(inner: RequestHandler, listed: Map<string, unknown>): RequestHandler {
  return async (request, extra) => {
    const result = await inner(request, extra);
    const tools = (result as { tools?: unknown } | null | undefined)?.tools;
    if (Array.isArray(tools)) {
      for (const tool of tools as { name?: unknown; outputSchema?: unknown }[]) {
        if (typeof tool?.name !== "string") continue;
        if (tool.outputSchema === undefined) listed.delete(tool.name);
        else listed.set(tool.name, tool.outputSchema);
      }
    }
    return result;
  };
}

function isErrorResult(result: unknown): boolean {
  try {
    return (result as { isError?: unknown } | null | undefined)?.isError === true;
  } catch {
    return true; // a result that cannot be read is no success to keep
  }
}

function toolName(request: unknown): string {
  const name = (request as { params?: { name?: unknown } } | null | undefined)?.params?.name;
  return typeof name === "string" ? name : "";
}

/** The record's throttle as this server's settings shape it (its credentials kept out). */
function lastThrottle(
  record: CallRecord,
  recognition: Recognition,
): UpstreamRateLimitedError | undefined {
  return record.last === undefined
    ? undefined
    : recognizeThrottle(record.last, recognition, undefined);
}

/** The result in `structuredContent`, or in `_meta` when the tool's output schema forbids it. */
export async function resultFor(
  throttle: UpstreamRateLimitedError,
  recognition: Recognition,
  outputSchema: unknown,
): Promise<RateLimitedToolResult> {
  // The author's name for the limit wins over the upstream's name or host, never over a name
  // the author already gave a door.
  const limit = throttle.limitSource === "option" ? throttle.limit : recognition.limit;
  const shape = { limit, relayUpstreamText: recognition.upstreamText };
  const result = throttle.toToolResult(shape);
  const payload = result.structuredContent?.error;
  if (payload === undefined || (await outputSchemaAdmits(outputSchema, payload))) return result;
  return throttle.toToolResult({ ...shape, placement: "meta" });
}
