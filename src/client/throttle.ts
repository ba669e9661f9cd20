// One reader for both layers (the host-side guide): a throttled tool result, or the MCP server's own
// refusal, in whatever shape the client library surfaced it.

import { isObject } from "../internal/is-object.js";
import { readCooldownError } from "./errors.js";
import { readServerThrottle } from "./server-layer.js";
import { readToolThrottle } from "./tool-layer.js";

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

// Wrappers put the client's error in `cause` (the AI SDK's retry error does); a few levels are
// enough, and a cycle ends here.
const MAX_CAUSE_DEPTH = 4;

/**
 * The throttle in what `callTool` resolved with: a tool result can carry a tool-layer throttle
 * only. (A result shaped like a JSON-RPC error is a tool's content, not the server refusing.)
 */
export function readResultThrottle(result: unknown): HostThrottle | undefined {
  try {
    return readToolThrottle(result, true);
  } catch {
    return undefined;
  }
}

/**
 * The throttle in a tool result or a thrown error, or `undefined`. Never throws: proxies,
 * throwing getters and revoked objects read as "not a throttle".
 *
 * @example
 * ```ts
 * import { readThrottle } from "mcp-upstream-throttle/client";
 *
 * declare const callTool: (params: { name: string }) => Promise<unknown>;
 * const outcome = await callTool({ name: "search" }).catch((error: unknown) => error);
 * const throttle = readThrottle(outcome);
 * if (throttle?.layer === "tool") console.warn(throttle.limit, throttle.retryAfterMs);
 * ```
 */
export function readThrottle(resultOrError: unknown): HostThrottle | undefined {
  try {
    let value = resultOrError;
    for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth += 1) {
      const throttle =
        readCooldownError(value) ?? readServerThrottle(value) ?? readToolThrottle(value);
      if (throttle !== undefined || !isObject(value)) return throttle;
      value = value.cause;
    }
  } catch {
    // A hostile value is not a throttle.
  }
  return undefined;
}
