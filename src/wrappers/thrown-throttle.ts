// What a tool callback's thrown error tells `withUpstreamThrottle`: a throttle (ours, wrapped,
// or a vendor SDK's), whether it was reported and remembered already, and the unread body of
// a fetch `Response` the error carries, read within bounds.

import { type Recognition, recognizeThrottle } from "../errors/recognize.js";
import { isUpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { mayBeThrottle } from "../signals/detect.js";
import type { Outcome } from "./guarded-call.js";
import { readThrottleBody } from "./read-body.js";
import { wasRemembered } from "./remembered.js";
import { isCooldownAnswer } from "./sdk-fetch.js";

/**
 * The throttle a thrown error carries, if any. An `UpstreamRateLimitedError` (or one wrapped as
 * a `cause`) was reported by the wrapper that made it; a vendor SDK's error is reported here.
 */
export async function recognize(
  error: unknown,
  settings: Recognition,
  bodyTimeoutMs: number,
): Promise<Outcome | undefined> {
  // Made by a wrapper that reported it; the credentials named here are kept out of it.
  if (isUpstreamRateLimitedError(error)) {
    const throttle = recognizeThrottle(error, settings, undefined);
    return { throttle, reported: true, remembered: wasRemembered(error) };
  }
  const response = unreadResponseOf(error);
  const read =
    response &&
    (await readThrottleBody(response, {
      treat503AsThrottle: settings.treat503AsThrottle,
      timeoutMs: bodyTimeoutMs,
    }).catch(() => undefined));
  const throttle = recognizeThrottle(error, settings, read?.body);
  if (throttle === undefined || throttle.cause !== error) return { throttle, reported: true };
  // sdkFetch's answer for a cooldown hit, which it reported as one.
  if (answeredFromCooldown(error)) return { throttle, reported: true };
  // Only a copy of the response was read: nobody will read the response itself now.
  if (read?.fromCopy) await response?.body?.cancel().catch(() => {});
  return { throttle };
}

/** Whether an SDK's error carries the 429 `sdkFetch` answers a cooldown hit with. */
function answeredFromCooldown(error: unknown): boolean {
  try {
    return isCooldownAnswer((error as { headers?: unknown } | null)?.headers);
  } catch {
    return false;
  }
}

/**
 * The unread fetch `Response` an error carries (ky's `HTTPError`), when it may be a throttle:
 * read as `throttledFetch` reads one, from a copy when only the body can tell, so an error that
 * is rethrown keeps a readable response.
 */
function unreadResponseOf(error: unknown): Response | undefined {
  try {
    const response = (error as { response?: unknown } | null)?.response;
    return isUnreadResponse(response) && mayBeThrottle(response.status) ? response : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch `Response` from any implementation (the global one, undici's), its body unread. */
function isUnreadResponse(value: unknown): value is Response {
  const candidate = value as Partial<Response> | null | undefined;
  return (
    typeof candidate?.status === "number" &&
    candidate.bodyUsed === false &&
    typeof candidate.clone === "function" &&
    typeof candidate.headers?.get === "function"
  );
}
