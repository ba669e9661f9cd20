// The outer layer: the MCP server itself refused the request. SEP-3304 `-32023` with
// `data.retryAfterMs`, the common `-32029` / `-31029`, or an HTTP 429, in the shapes the
// client libraries throw them. No SDK transport keeps the response's headers, so a delay is
// known only when the body carries one.

import { isObject } from "../internal/is-object.js";
import { jsonRpcError, normalizeBody } from "../signals/body.js";
import type { HostThrottle, HostThrottleSource } from "./host-throttle.js";

const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([-32023, -32029, -31029]);
// An HTTP body worth parsing is small; the SDKs read it whole, this does not parse it whole.
const MAX_BODY_LENGTH = 64 * 1024;
// The 1.x transport's message: "Streamable HTTP error: Error POSTing to endpoint: <body>".
const POSTING = "Error POSTing to endpoint: ";

export function readServerThrottle(value: unknown): HostThrottle | undefined {
  if (!isObject(value)) return undefined;
  // McpError (SDK 1.x), ProtocolError (2.x), MCPClientError (@ai-sdk/mcp), a raw JSON-RPC error
  // or error response.
  const rpc = jsonRpcError(value);
  if (rpc !== undefined && RATE_LIMIT_CODES.has(rpc.code)) return fromData(rpc.data, "code");
  const body = http429Body(value);
  if (body === undefined) return undefined;
  return fromData(jsonRpcError(parse(body))?.data, "status");
}

/**
 * The body of an HTTP 429 (`""` when it has none), or `undefined` for anything else:
 * SdkHttpError (2.x: `data.status`, `data.text`), MCPClientError (`@ai-sdk/mcp`: `statusCode`,
 * `responseBody`), StreamableHTTPError (1.x: `code` 429, the body in the message).
 */
function http429Body(value: Record<string, unknown>): string | undefined {
  const { data } = value;
  if (isObject(data) && data.status === 429) return text(data.text);
  if (value.statusCode === 429) return text(value.responseBody);
  if (value.code !== 429) return undefined;
  const message = text(value.message);
  const at = message.indexOf(POSTING);
  return at === -1 ? "" : message.slice(at + POSTING.length);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function parse(body: string): unknown {
  return body.length > MAX_BODY_LENGTH ? undefined : normalizeBody(body);
}

/** SEP-3304 RL-9: `retryAfterMs` wins over any other delay. */
function fromData(data: unknown, fallback: HostThrottleSource): HostThrottle {
  if (isObject(data)) {
    const ms = delay(data.retryAfterMs);
    if (ms !== undefined) return { layer: "server", retryAfterMs: ms, source: "retryAfterMs" };
    const seconds = delay(data.retryAfterSeconds);
    const fromSeconds = seconds === undefined ? undefined : delay(seconds * 1000);
    if (fromSeconds !== undefined) {
      return { layer: "server", retryAfterMs: fromSeconds, source: "retryAfterSeconds" };
    }
  }
  return { layer: "server", source: fallback };
}

function delay(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
