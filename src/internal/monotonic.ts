// The one monotonic clock of the package. `Date.now()` jumps when the wall clock is set (an NTP
// step, a VM resumed), and a step would stretch or cut every wait measured on it.

const origin = typeof performance === "object" ? performance.timeOrigin : undefined;

/**
 * Epoch milliseconds, monotonic: the time origin of this process plus the time since. Never
 * steps; it may drift from the wall clock (by however wrong the clock was at start). Where the
 * runtime has no `performance`, the wall clock.
 */
export const monotonicNow: () => number =
  origin !== undefined && Number.isFinite(origin) && typeof performance.now === "function"
    ? () => origin + performance.now()
    : Date.now;
