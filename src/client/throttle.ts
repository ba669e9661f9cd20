// One reader for both layers (the host-side guide): a throttled tool result, or the MCP server's own
// refusal, in whatever shape the client library surfaced it.

import { isObject } from "../internal/is-object.js";
import { readCooldownError } from "./errors.js";
import type { HostThrottle } from "./host-throttle.js";
import { readServerThrottle } from "./server-layer.js";
import { readToolThrottle } from "./tool-layer.js";

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
