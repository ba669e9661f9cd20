// The cooldown's clocks. Inside a process, an end is kept on a monotonic clock: `Date.now()` jumps
// when the wall clock is set (an NTP step, a VM resumed), and a step would stretch or cut every
// live cooldown by its size. Between replicas, an end travels as wall-clock epoch milliseconds
// (what NTP keeps the same on every machine), read when it is sent or received: a replica whose
// clock was wrong at start and corrected later agrees with the others from the correction on.

import { monotonicNow } from "../internal/monotonic.js";

export { monotonicNow };

/** The wall clock shared with other replicas: epoch milliseconds, kept by NTP. */
export type WallClock = () => number;

/** How far the monotonic clock is ahead of `wall` now: add it to a wall-clock end to keep it here. */
export function wallToMonotonic(wall: WallClock): number {
  return monotonicNow() - wall();
}
