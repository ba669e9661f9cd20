// The error a cooldown hit answers with: built by the doors, from what the store remembered.

import { UpstreamRateLimitedError, withoutFrames } from "../errors/upstream-rate-limited-error.js";
import type { CooldownHitEvent, EventSource } from "../observability/events.js";
import type { ActiveCooldown } from "../untrusted/store-entry.js";

/** The error for a remembered throttle: the time actually left, and what was remembered. */
export function errorFromCooldown(
  cooldown: ActiveCooldown,
  host: string | undefined,
): UpstreamRateLimitedError {
  // No stack: a cooldown hit is an answer, not a fault; capturing the frames was a third of it.
  return withoutFrames(
    () =>
      new UpstreamRateLimitedError({
        host,
        limit: cooldown.limit,
        limitSource: cooldown.limitSource,
        status: cooldown.status,
        retryAfterMs: cooldown.remainingMs,
        resetsAt: cooldown.resetsAt,
        delaySource: "cooldown",
      }),
  );
}

/** The `cooldown-hit` event of a call answered from the cooldown. */
export function cooldownHitEvent(
  error: UpstreamRateLimitedError,
  remainingMs: number,
  source: EventSource,
): CooldownHitEvent {
  return {
    type: "cooldown-hit",
    source,
    limit: error.limit,
    status: error.status,
    retryAfterMs: remainingMs,
    ...(error.host === undefined ? {} : { host: error.host }),
  };
}
