// A door a tool may call without awaiting it (`void fetch(…)`, fire and forget): inside a tool
// call, its answer is a promise that tells the call whether the tool took it up, so that what a
// request left unawaited meets settles nothing of the call's answer. Outside one, nothing is
// made: the plain guarded call.

import { currentCall, runAsRequest } from "../internal/call-notes.js";
import { type SentRequest, watchedPromise } from "../internal/watched.js";
import type { GuardedCall } from "./guarded-call.js";

/** `guard.run(a, b)`, watched when a tool call is in progress. */
export function watchedRun<A, B, R>(guard: GuardedCall<A, B, R>, a: A, b: B): Promise<R> {
  if (currentCall() === undefined) return guard.run(a, b);
  const sent: SentRequest = { consumed: false };
  return watchedPromise(
    runAsRequest(sent, (notes) => guard.run(a, b, notes)),
    sent,
  );
}
