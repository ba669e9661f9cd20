// The inner layer as a host receives it: the `rate_limited` result whole, or what a client library
// kept of it (only `{ error }`, only the text, the text inside an exception's message).

import { isValidLimit, RATE_LIMITED_META_KEY, readRateLimitedError } from "../contract/result.js";
import { isObject } from "../internal/is-object.js";
import type { HostThrottle, HostThrottleSource } from "./host-throttle.js";
import { parseRateLimitedText } from "./text.js";

/**
 * A tool-layer throttle in a value. `returned`: the value is what `callTool` resolved with (a
 * result), not an error it threw: then an error's `message` is not looked at, and a result not
 * marked `isError` counts only with a valid `{ error }` object (what Mastra leaves of one).
 */
export function readToolThrottle(value: unknown, returned = false): HostThrottle | undefined {
  if (typeof value === "string") return fromText(value);
  if (!isObject(value)) return undefined;
  if (value.isError === true) {
    const { structuredContent, _meta, content } = value;
    const error = isObject(structuredContent) ? structuredContent.error : undefined;
    const meta = isObject(_meta) ? _meta[RATE_LIMITED_META_KEY] : undefined;
    const first = Array.isArray(content) ? content[0] : undefined;
    return (
      fromError(error, "structuredContent") ??
      fromError(meta, "_meta") ??
      (isObject(first) && first.type === "text" ? fromText(first.text) : undefined)
    );
  }
  return fromError(value.error, "error") ?? (returned ? undefined : fromMessage(value.message));
}

function fromError(value: unknown, source: HostThrottleSource): HostThrottle | undefined {
  const error = readRateLimitedError(value);
  return error && toolThrottle(error.limit, error.retry_after_seconds, source);
}

function fromText(text: unknown): HostThrottle | undefined {
  const parsed = typeof text === "string" ? parseRateLimitedText(text) : undefined;
  return parsed && toolThrottle(parsed.limit, parsed.retryAfterSeconds, "text");
}

function toolThrottle(
  limit: string,
  seconds: number | undefined,
  source: HostThrottleSource,
): HostThrottle | undefined {
  // One rule for a limit (the security guide): a blank one names nothing, so the value is no throttle.
  if (!isValidLimit(limit)) return undefined;
  return {
    layer: "tool",
    limit,
    ...(seconds === undefined ? {} : { retryAfterMs: seconds * 1000 }),
    source,
  };
}

// @langchain/mcp-adapters 1.x throws `ToolException("MCP tool '<tool>' on server '<server>'
// returned an error: <text>")` for an isError result.
const LANGCHAIN_PREFIX = "MCP tool '";
const LANGCHAIN_MARK = "' returned an error: ";

/** An error whose message is the sentence, or LangChain's wording around it. */
function fromMessage(message: unknown): HostThrottle | undefined {
  if (typeof message !== "string") return undefined;
  const mark = message.startsWith(LANGCHAIN_PREFIX) ? message.indexOf(LANGCHAIN_MARK) : -1;
  return fromText(mark === -1 ? message : message.slice(mark + LANGCHAIN_MARK.length));
}
