// The one wait of the package: a retry's on the tool side, a throttle's on the host side.

import { MAX_TIMER_MS } from "./options.js";

/**
 * Waits `ms` (or until `until` settles, if sooner), or rejects with the signal's reason the
 * moment it aborts. Nothing is left behind: the timer and the listener go when it ends.
 */
export function sleep(
  ms: number,
  signal?: AbortSignal | null,
  until?: Promise<unknown>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    const finish = () => {
      done();
      resolve();
    };
    const timer = setTimeout(finish, Math.min(ms, MAX_TIMER_MS));
    signal?.addEventListener("abort", onAbort, { once: true });
    void until?.then(finish, finish);
  });
}
