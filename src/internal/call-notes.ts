// What the doors tell the tool call in progress: "the upstream throttled" or "the upstream
// answered". A server adopted as a whole (`throttleServer`) listens, per call, so that a throttle
// a tool's own catch-all swallowed still reaches the client as the rate_limited result. Nothing
// listens until then: each note is one comparison with `undefined`.

/** The listener of the call in progress, if any. */
export interface CallNotes {
  /** A door saw a throttle (the error it throws, or would throw). */
  throttle(error: object): void;
  /** A door saw the upstream answer without a throttle. */
  answered(): void;
}

let current: (() => CallNotes | undefined) | undefined;

/** Installs the function that finds the listener of the call in progress (one per process). */
export function listenToCalls(find: (() => CallNotes | undefined) | undefined): void {
  current = find;
}

/** Tells the call in progress that its upstream throttled. */
export function noteThrottle(error: object): void {
  if (current !== undefined) current()?.throttle(error);
}

/** Tells the call in progress that its upstream answered without a throttle. */
export function noteAnswered(): void {
  if (current !== undefined) current()?.answered();
}
