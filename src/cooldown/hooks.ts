/** Calls a hook of the caller's; what it throws, or the promise it returns rejecting, is dropped. */
export function callHook(hook: ((error: unknown) => unknown) | undefined, error: unknown): void {
  try {
    const returned = hook?.(error);
    if (isThenable(returned)) returned.then(undefined, () => {});
  } catch {
    // A hook that throws must not fail the call either.
  }
}

export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
