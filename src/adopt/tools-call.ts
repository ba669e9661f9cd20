// The one place every adopted server goes through: the low-level protocol object's `tools/call`
// handler (the SDK's `Server`, the one inside an `McpServer`, a fastmcp session's). Each call
// runs in its own record; when the handler is done, a throttle the doors saw (and no upstream
// answer after it) becomes the rate_limited result, whatever the tool's code made of it.

import {
  isRateLimitedResult,
  type RateLimitedContentBlock,
  type RateLimitedToolResult,
} from "../contract/result.js";
import { type Recognition, recognizeThrottle } from "../errors/recognize.js";
import { relayedThrottleOf } from "../errors/relayed-result.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { CallRecord, callScope } from "../internal/call-scope.js";
import { outputSchemaAdmits } from "../wrappers/output-schema.js";
import { observeLaterDispatcher } from "./global-dispatcher.js";
import { type NotedThrottle, ownContent } from "./own-content.js";
import { type OwnListing, ownListing } from "./own-listing.js";

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
  /** A tool's registration (its output schema), when the framework keeps it readable. */
  registered?: ((name: string) => { outputSchema?: unknown } | undefined) | undefined;
  /** The server's `cooldown`, for the doors of its calls that have none of their own. */
  cooldown?: object | undefined;
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
  const ownList = ownListing(protocol._requestHandlers);
  // The framework's registry first, else what this instance listed, else its own list, read.
  const learned = (name: string) => adoption.registered?.(name) !== undefined || listed.has(name);
  const schemaOf = (name: string) => {
    const entry = adoption.registered?.(name);
    if (entry !== undefined) return entry.outputSchema;
    return listed.has(name) ? listed.get(name) : ownList.known(name);
  };
  const wrapAll = () => {
    wrap(protocol, "tools/call", (inner) =>
      callHandler(withSchemaLoaded(inner, learned, ownList), adoption, schemaOf),
    );
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

export function callHandler(
  inner: RequestHandler,
  { recognition, keepsSuccess, cooldown }: Adoption,
  schemaOf: (name: string) => unknown,
): RequestHandler {
  return async (request, extra) => {
    observeLaterDispatcher();
    const record = new CallRecord(cooldown, callScope().current());
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
    if (throttle === undefined) return result;
    // The tool's own answer follows ours, cleaned: its recovery instructions survive.
    const own = ownContent(result, notedThrottle(record, throttle), recognition);
    return resultFor(throttle, recognition, schemaOf(name), own);
  };
}

/**
 * The handler, then, when the call may become the rate_limited result (a throttle heard, or a
 * throw) and its tool's schema is not known here, the server's own list read before placing it.
 */
function withSchemaLoaded(
  inner: RequestHandler,
  learned: (name: string) => boolean,
  ownList: OwnListing,
): RequestHandler {
  return async (request, extra) => {
    const name = toolName(request);
    const load = () => (learned(name) ? undefined : ownList.load(extra));
    let result: unknown;
    try {
      result = await inner(request, extra);
    } catch (error) {
      await load();
      throw error;
    }
    if (callScope().current()?.last !== undefined) await load();
    return result;
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

/** What the replacement of a tool's answer needs to know of the throttle the record heard. */
function notedThrottle(record: CallRecord, throttle: UpstreamRateLimitedError): NotedThrottle {
  const noted = record.last ?? throttle;
  // As a catch-all prints them: the message, or `String(error)` (`<name>: <message>`).
  const messages = new Set<string>();
  for (const error of [throttle, noted] as { name?: unknown; message?: unknown }[]) {
    if (typeof error.message !== "string") continue;
    messages.add(error.message);
    if (typeof error.name === "string") messages.add(`${error.name}: ${error.message}`);
  }
  return { noted, credentials: record.credentials, messages: [...messages] };
}

/**
 * The result in `structuredContent`, or in `_meta` when the tool's output schema forbids it;
 * `own`, the tool's own blocks, after the text block.
 */
export async function resultFor(
  throttle: UpstreamRateLimitedError,
  recognition: Recognition,
  outputSchema: unknown,
  own: readonly RateLimitedContentBlock[] = [],
): Promise<RateLimitedToolResult> {
  // The author's name for the limit wins over the upstream's name or host, never over a name
  // the author already gave a door.
  const limit = throttle.limitSource === "option" ? throttle.limit : recognition.limit;
  const shape = { limit, relayUpstreamText: recognition.upstreamText };
  let result = throttle.toToolResult(shape);
  const payload = result.structuredContent?.error;
  if (payload !== undefined && !(await outputSchemaAdmits(outputSchema, payload)))
    result = throttle.toToolResult({ ...shape, placement: "meta" });
  result.content.push(...own);
  return result;
}
