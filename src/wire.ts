// What throttledFetch and throttleInterceptor share once a response's status, headers and
// (bounded) body are in hand: detection, the request's secrets cut from the message, the error.

import { errorFromSignal, type UpstreamRateLimitedError } from "./errors.js";
import type { ThrottleSettings } from "./options.js";
import { redactSecrets } from "./redact.js";
import { detectThrottle } from "./signals/detect.js";
import type { HeaderInput } from "./signals/headers.js";

export interface WireResponse {
  status: number;
  headers: HeaderInput;
  /** The body text as read within bounds, or nothing. */
  body: string | undefined;
}

export interface WireRequest {
  /** The upstream's host name, the last fallback for the limit's name. */
  host: string | undefined;
  /** The request's credentials; computed only when a message needs cleaning. */
  secrets: () => readonly string[];
}

/** The error for a throttled response, or `undefined` when it is none. */
export function throttleFromWire(
  response: WireResponse,
  request: WireRequest,
  settings: ThrottleSettings,
): UpstreamRateLimitedError | undefined {
  const signal = detectThrottle(response, {
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    treat503AsThrottle: settings.treat503AsThrottle,
  });
  if (signal === undefined) return undefined;
  if (signal.message !== undefined)
    signal.message = redactSecrets(signal.message, request.secrets());
  return errorFromSignal(signal, {
    limit: settings.limit,
    host: request.host,
    defaultRetryAfterSeconds: settings.defaultRetryAfterSeconds,
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
  });
}
