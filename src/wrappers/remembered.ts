// Which throttles a door remembered. A tool's cooldown does not remember one again under its
// MCP caller's partition: the door already keyed it to the credential the upstream request
// carried, which is the upstream's own limit.

import type { Cooldown, CooldownLookup } from "../cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";

const remembered = new WeakSet<object>();

/** Remembers a throttle in `cooldown`, and that a door did. */
export function rememberThrottle(
  cooldown: Cooldown,
  lookup: CooldownLookup,
  throttle: UpstreamRateLimitedError,
): Promise<void> {
  remembered.add(throttle);
  return cooldown.remember(lookup, throttle);
}

/** Marks a throttle a door answered from its cooldown: it is remembered already. */
export function markRemembered(throttle: UpstreamRateLimitedError): void {
  remembered.add(throttle);
}

/** Whether a door remembered this throttle (or the one it wraps as its `cause`). */
export function wasRemembered(error: unknown): boolean {
  let value = error;
  for (let depth = 0; depth < 4 && typeof value === "object" && value !== null; depth += 1) {
    if (remembered.has(value)) return true;
    try {
      value = (value as { cause?: unknown }).cause;
    } catch {
      return false;
    }
  }
  return false;
}
