// The cooldown's clock: epoch milliseconds that never step. `Date.now()` jumps when the wall
// clock is set (an NTP step, a VM resumed), and a step back would stretch every cooldown by its
// size. The monotonic clock counted from the process's start keeps the epoch scale that stored
// entries and other replicas use, and only moves forward.

const origin = typeof performance === "object" ? performance.timeOrigin : undefined;

/** Epoch milliseconds, monotonic: the time origin of this process plus the time since. */
export const monotonicNow: () => number =
  origin !== undefined && Number.isFinite(origin) && typeof performance.now === "function"
    ? () => origin + performance.now()
    : Date.now;
