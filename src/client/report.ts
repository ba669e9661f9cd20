// What honorThrottles tells operators (the observability guide): a throttle it saw, a wait before
// sending a call (again), a call the cooldown answered. Limits and numbers only, never message
// text.

import { emitEvent, type ThrottleEventHook } from "../observability/events.js";
import type { DelaySource } from "../signals/delay.js";
import { cleanLimitName } from "../untrusted/limit-name.js";
import type { HostThrottle } from "./host-throttle.js";

/** The `limit` of events about the MCP server's own limit, which names none. */
export const SERVER_LIMIT_NAME = "mcp-server";
/** The `limit` of events about a tool-layer limit whose name is no identifier. */
const INVALID_NAME = "unnamed-limit";

// A host never sees an upstream's status: only the MCP server's own refusal counts as a 429.
const base = (from: Layered) =>
  ({
    source: "honorThrottles",
    // A server's limit name goes to logs and metrics only as an identifier (the untrusted-data
    // rules, the security guide).
    limit:
      from.limit === undefined ? SERVER_LIMIT_NAME : (cleanLimitName(from.limit) ?? INVALID_NAME),
    ...(from.layer === "server" ? { status: 429 } : {}),
  }) as const;

/** Which limit an event is about: a `rate_limited` result's limit, or the MCP server's own. */
type Layered = { layer: HostThrottle["layer"]; limit?: string | undefined };

export function reportThrottle(
  hook: ThrottleEventHook | undefined,
  throttle: HostThrottle,
  delayMs: number | undefined,
): void {
  emitEvent(hook, {
    ...base(throttle),
    type: "throttle",
    ...(delayMs === undefined ? {} : { retryAfterMs: delayMs }),
    delaySource: delaySource(throttle, delayMs),
  });
}

export function reportRetry(
  hook: ThrottleEventHook | undefined,
  from: Layered,
  attempt: number,
  waitMs: number,
): void {
  emitEvent(hook, { ...base(from), type: "retry", attempt, waitMs });
}

export function reportCooldownHit(
  hook: ThrottleEventHook | undefined,
  from: Layered,
  retryAfterMs: number,
): void {
  emitEvent(hook, { ...base(from), type: "cooldown-hit", retryAfterMs });
}

function delaySource(throttle: HostThrottle, delayMs: number | undefined): DelaySource {
  if (delayMs === undefined) return "none";
  if (throttle.source === "retryAfterMs") return "json-rpc-retry-after-ms";
  if (throttle.source === "retryAfterSeconds") return "json-rpc-retry-after-seconds";
  if (throttle.source === "cooldown") return "cooldown";
  return "rate-limited-result";
}
