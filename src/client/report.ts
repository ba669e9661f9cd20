// What honorThrottles tells operators (design §10): a throttle it saw, a wait before sending a
// call (again), a call the cooldown answered. Limits and numbers only, never message text.

import { emitEvent, type ThrottleEventHook } from "../events.js";
import type { DelaySource } from "../signals/delay.js";
import type { HostThrottle } from "./throttle.js";

/** The `limit` of events about the MCP server's own limit, which names none. */
export const SERVER_LIMIT_NAME = "mcp-server";

// A host never sees the upstream's status: every throttle it sees is reported as a 429.
const base = (limit: string | undefined) =>
  ({ source: "honorThrottles", limit: limit ?? SERVER_LIMIT_NAME, status: 429 }) as const;

export function reportThrottle(
  hook: ThrottleEventHook | undefined,
  throttle: HostThrottle,
  delayMs: number | undefined,
): void {
  emitEvent(hook, {
    ...base(throttle.limit),
    type: "throttle",
    ...(delayMs === undefined ? {} : { retryAfterMs: delayMs }),
    delaySource: delaySource(throttle, delayMs),
  });
}

export function reportRetry(
  hook: ThrottleEventHook | undefined,
  limit: string | undefined,
  attempt: number,
  waitMs: number,
): void {
  emitEvent(hook, { ...base(limit), type: "retry", attempt, waitMs });
}

export function reportCooldownHit(
  hook: ThrottleEventHook | undefined,
  limit: string | undefined,
  retryAfterMs: number,
): void {
  emitEvent(hook, { ...base(limit), type: "cooldown-hit", retryAfterMs });
}

function delaySource(throttle: HostThrottle, delayMs: number | undefined): DelaySource {
  if (delayMs === undefined) return "none";
  if (throttle.source === "retryAfterMs") return "json-rpc-retry-after-ms";
  if (throttle.source === "retryAfterSeconds") return "json-rpc-retry-after-seconds";
  if (throttle.source === "cooldown") return "cooldown";
  // A tool result's `retry_after_seconds`: the core's sources have no closer name for it.
  return "body-retry-after";
}
