// Waiting for another call (the probe of a half-open limit), never longer than the caller
// allows and never past its AbortSignal.

/** Resolves when `settled` does or after `ms`, whichever is first; rejects when `signal` aborts. */
export function waitAtMost(
  settled: Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
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
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    void settled.then(() => {
      done();
      resolve();
    });
  });
}
