// A throttle made where the request's credentials were not known (a `throttledFetch` inside
// `withUpstreamThrottle`), with them kept out afterwards.

import { cleanHost } from "../untrusted/limit-name.js";
import { cleanMessage } from "../untrusted/message.js";
import type { SecretMatcher } from "../untrusted/secrets.js";
import { UpstreamRateLimitedError, withoutFrames } from "./upstream-rate-limited-error.js";

/**
 * The throttle with `secrets` kept out of what the upstream had a say in (its limit name, its
 * message, its host): itself when nothing of them is there, else a copy. For a throttle made
 * where these credentials were not known (a `throttledFetch` inside `withUpstreamThrottle`).
 */
export function withoutSecrets(
  throttle: UpstreamRateLimitedError,
  secrets: SecretMatcher,
): UpstreamRateLimitedError {
  const said = throttle.upstreamMessage;
  const message = said === undefined ? undefined : cleanMessage(said, secrets);
  const host = cleanHost(throttle.host, secrets);
  const renamed = throttle.limitSource !== "option" && secrets.touches(throttle.limit);
  const upstreamLimit = throttle.upstreamLimit;
  const keptLimit =
    upstreamLimit === undefined || secrets.touches(upstreamLimit) ? undefined : upstreamLimit;
  if (message === said && host === throttle.host && !renamed && keptLimit === upstreamLimit)
    return throttle;
  return withoutFrames(
    () =>
      new UpstreamRateLimitedError({
        limit: renamed ? (host ?? "upstream") : throttle.limit,
        limitSource: renamed ? "host" : throttle.limitSource,
        status: throttle.status,
        retryAfterMs: throttle.retryAfterMs,
        resetsAt: throttle.resetsAt,
        delaySource: throttle.delaySource,
        upstreamMessage: message,
        upstreamLimit: keptLimit,
        host,
        cause: throttle.cause,
      }),
  );
}
