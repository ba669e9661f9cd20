// What the doors tell the tool call in progress: "the upstream throttled" or "the upstream
// answered". A server adopted as a whole (`throttleServer`) listens, per call, so that a throttle
// a tool's own catch-all swallowed still reaches the client as the rate_limited result. Nothing
// listens until then: each note is one comparison with `undefined`. A throttle's note carries
// how to find the credentials its request carried, so that what the tool itself answered can be
// shown cleaned of them; nothing is gathered unless the replacement asks.

import type { SentRequest } from "./watched.js";

/** The credentials of a request, as far as a note's listener reads them (`Credentials`). */
export interface NotedCredentials {
  /** What redacts them from a text. */
  matcher(): { redact(text: string): string };
}

/** The listener of the call in progress, if any. */
export interface CallNotes {
  /**
   * A door saw a throttle (the error it throws, or would throw); `credentials` finds the
   * credentials of the throttled request, when the door knows them.
   */
  throttle(
    error: object,
    credentials?: (() => NotedCredentials) | undefined,
    sent?: SentRequest | undefined,
  ): void;
  /** A door saw the upstream answer with a success (to `sent`, when the door watches it). */
  answered(sent?: SentRequest | undefined): void;
  /**
   * The cooldown of the server the call belongs to (`throttleServer`'s), for doors that have
   * none of their own; opaque here.
   */
  readonly cooldown?: object | undefined;
  /** The library built a rate_limited result during the call. */
  built?(result: object): void;
}

let current: (() => CallNotes | undefined) | undefined;

/** Runs one watched request of a door in its own record (`withSentRequest`), once installed. */
export type RequestRunner = <T>(
  sent: SentRequest,
  fn: (notes: CallNotes | undefined) => Promise<T>,
) => Promise<T>;

let runner: RequestRunner | undefined;

/**
 * Installs the function that finds the listener of the call in progress (one per process), and
 * the one that runs a watched request in its own record: both come with the call scope, so a
 * door that no server listens to loads neither.
 */
export function listenToCalls(
  find: (() => CallNotes | undefined) | undefined,
  run?: RequestRunner,
): void {
  current = find;
  runner = run;
}

/** Runs `fn` as the watched request `sent`, in its own record where the scope makes one. */
export function runAsRequest<T>(
  sent: SentRequest,
  fn: (notes: CallNotes | undefined) => Promise<T>,
): Promise<T> {
  return runner === undefined ? fn(undefined) : runner(sent, fn);
}

/**
 * The listener of the call in progress, for a door whose answers arrive outside the call's
 * async context (undici runs a dispatch handler's callbacks in the socket's): taken when the
 * request is sent, and given back with each note.
 */
export function currentCall(): CallNotes | undefined {
  return current === undefined ? undefined : current();
}

/**
 * `call`, with each throttle it hears marked as `sent`'s: the call can tell whether its tool took
 * up that request's answer.
 */
export function notesOfRequest(call: CallNotes, sent: SentRequest): CallNotes {
  return {
    throttle: (error, credentials) => call.throttle(error, credentials, sent),
    answered: () => call.answered(sent),
    cooldown: call.cooldown,
    built: (result) => call.built?.(result),
  };
}

/**
 * Tells the call in progress (or `call`) that its upstream throttled; `credentials` finds the
 * credentials of the throttled request, when the door knows them.
 */
export function noteThrottle(
  error: object,
  call?: CallNotes,
  credentials?: (() => NotedCredentials) | undefined,
): void {
  const target = call ?? (current === undefined ? undefined : current());
  target?.throttle(error, credentials);
}

/** Tells the call in progress that the library built this rate_limited result. */
export function noteBuilt(result: object): void {
  if (current === undefined) return;
  current()?.built?.(result);
}

/**
 * Tells the call in progress (or `call`) that its upstream answered: `answer` is the status, or
 * the response carrying it. Only a success counts (a status below 400): a 404 or a 500 after a
 * throttle leaves the throttle as the call's outcome; a retry that worked does not.
 */
export function noteAnswered(answer: unknown, call?: CallNotes): void {
  const target = call ?? (current === undefined ? undefined : current());
  if (target === undefined) return;
  const status = statusOf(answer);
  if (status === undefined || status < 400) target.answered();
}

function statusOf(answer: unknown): number | undefined {
  if (typeof answer === "number") return answer;
  try {
    const status = (answer as { status?: unknown } | null | undefined)?.status;
    return typeof status === "number" ? status : undefined;
  } catch {
    return undefined;
  }
}
