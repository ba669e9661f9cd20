// What the host side reads a throttle as, from either layer: a type of its own, so every reader
// can name it without importing the others.

/** Where a throttle's delay was read (or, with no delay, what identified the throttle). */
export type HostThrottleSource =
  /** A `rate_limited` result's `structuredContent.error`. */
  | "structuredContent"
  /** A `rate_limited` result's `_meta["mcp-upstream-throttle/error"]`. */
  | "_meta"
  /** `{ error }` alone, as hosts that drop the text and `isError` keep it (Mastra). */
  | "error"
  /**
   * The exact sentence of a `rate_limited` result: a result's first text, a string, or an error's
   * message.
   */
  | "text"
  /** A JSON-RPC error's `data.retryAfterMs` (SEP-3304), in an error or an HTTP 429 body. */
  | "retryAfterMs"
  /** A JSON-RPC error's `data.retryAfterSeconds`. */
  | "retryAfterSeconds"
  /** A JSON-RPC rate-limit code (`-32023`, `-32029`, `-31029`) with no usable delay. */
  | "code"
  /** An HTTP 429 with no usable delay in its body. */
  | "status"
  /** A `ThrottleCooldownError`: the client-side cooldown answered, with the time left. */
  | "cooldown";

/** A throttle as the host side reads it, from either layer. */
export interface HostThrottle {
  /**
   * A `rate_limited` result (an upstream throttled the tool), or the MCP server's own limit (outer
   * layer).
   */
  layer: "tool" | "server";
  /** The result's `limit`; absent for the outer layer, whose errors name no limit. */
  limit?: string;
  /** Milliseconds to wait; absent when no delay is known. */
  retryAfterMs?: number;
  /** Where the delay was read (or, with no delay, what identified the throttle). */
  source: HostThrottleSource;
}
