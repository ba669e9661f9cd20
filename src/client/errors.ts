// What a call gets when the client-side cooldown answers it without a round trip and the
// throttle it remembers was thrown, not returned: the MCP server's own limit, or a tool-layer
// throttle that the client library turned into an exception (LangChain's adapter).

import { isValidLimit, rateLimitedText } from "../contract/result.js";
import type { HostThrottle } from "./host-throttle.js";

/** SEP-3304's code: code that recognises the server's `-32023` recognises this error too. */
export const RATE_LIMITED_CODE = -32023;

// A registered symbol survives two copies of this package in one dependency tree.
const BRAND = Symbol.for("mcp-upstream-throttle/ThrottleCooldownError");

/** What a `ThrottleCooldownError` is made from. */
export interface ThrottleCooldownErrorInit {
  /** `"tool"` for a `rate_limited` result's limit, `"server"` for the MCP server's own limit. */
  layer: "tool" | "server";
  /** The limit that is cooling down; absent for the server's own limit. */
  limit?: string | undefined;
  /** Time left in the cooldown, in milliseconds. */
  retryAfterMs: number;
  /** The throttle the cooldown remembers, as the standard `cause`. */
  cause?: unknown;
}

/**
 * Thrown by `honorThrottles` instead of calling: the call would hit a limit that is still
 * throttled. For the outer layer it has SEP-3304's shape (`code` -32023, `data.retryAfterMs`); for
 * a tool-layer throttle its message is the exact sentence of a `rate_limited` result with the time
 * left.
 *
 * @example
 * ```ts
 * import { honorThrottles, ThrottleCooldownError } from "mcp-upstream-throttle/client";
 *
 * declare const callTool: (params: { name: string }) => Promise<unknown>;
 * const call = honorThrottles(callTool);
 * try {
 *   await call({ name: "search" });
 * } catch (error) {
 *   if (error instanceof ThrottleCooldownError) console.warn(`wait ${error.retryAfterMs} ms`);
 *   else throw error;
 * }
 * ```
 */
export class ThrottleCooldownError extends Error {
  /** Always `"ThrottleCooldownError"`. */
  override readonly name = "ThrottleCooldownError";
  /** `"tool"` for a `rate_limited` result's limit, `"server"` for the MCP server's own limit. */
  readonly layer: "tool" | "server";
  /** The limit that is cooling down; `undefined` for the server's own limit. */
  readonly limit: string | undefined;
  /** Time left in the cooldown, in milliseconds. */
  readonly retryAfterMs: number;
  // Own properties only on the outer layer's error: a tool-layer throttle is never a protocol
  // error, and code that checks `"code" in error` must not think so.
  /** SEP-3304's `-32023`; outer layer only. */
  declare readonly code?: typeof RATE_LIMITED_CODE;
  /** SEP-3304's `error.data`; outer layer only. */
  declare readonly data?: { retryAfterMs: number };

  /** Makes the error; an outer-layer one gets SEP-3304's `code` and `data`. */
  constructor(init: ThrottleCooldownErrorInit) {
    const seconds = Math.ceil(init.retryAfterMs / 1000);
    super(
      init.layer === "tool" && isValidLimit(init.limit)
        ? rateLimitedText(init.limit, seconds)
        : `The MCP server is rate limiting this client. Retry after ${seconds} ${seconds === 1 ? "second" : "seconds"} (answered by the client-side cooldown: no request was sent).`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.layer = init.layer;
    this.limit = init.limit;
    this.retryAfterMs = init.retryAfterMs;
    if (init.layer === "server") {
      this.code = RATE_LIMITED_CODE;
      this.data = { retryAfterMs: init.retryAfterMs };
    }
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * `instanceof ThrottleCooldownError` that also holds across two copies of the package.
 *
 * @example
 * ```ts
 * import { isThrottleCooldownError } from "mcp-upstream-throttle/client";
 *
 * function describe(error: unknown): string {
 *   if (isThrottleCooldownError(error)) return `cooling down for ${error.retryAfterMs} ms`;
 *   return String(error);
 * }
 * ```
 */
export function isThrottleCooldownError(value: unknown): value is ThrottleCooldownError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value instanceof ThrottleCooldownError || (value as { [BRAND]?: unknown })[BRAND] === true)
  );
}

export function readCooldownError(value: unknown): HostThrottle | undefined {
  if (!isThrottleCooldownError(value)) return undefined;
  // The brand can be forged; the fields are checked like any other input.
  const { layer, limit, retryAfterMs } = value;
  if (layer !== "tool" && layer !== "server") return undefined;
  if (typeof retryAfterMs !== "number" || !Number.isFinite(retryAfterMs) || retryAfterMs < 0)
    return undefined;
  if (limit !== undefined && !isValidLimit(limit)) return undefined;
  return { layer, ...(limit === undefined ? {} : { limit }), retryAfterMs, source: "cooldown" };
}
