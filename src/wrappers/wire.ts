// What throttledFetch and throttleInterceptor share once a response's status, headers and
// (bounded) body are in hand: detection with the request's credentials kept out, the error.

import {
  errorFromSignal,
  type UpstreamRateLimitedError,
} from "../errors/upstream-rate-limited-error.js";

import { detect } from "../signals/detect.js";
import type { HeaderInput, HeaderReader } from "../signals/headers.js";
import type { Credentials } from "../untrusted/credentials.js";
import { cleanHost } from "../untrusted/limit-name.js";
import type { ThrottleSettings } from "./settings.js";

export interface WireResponse {
  status: number;
  headers: HeaderInput;
  /** `headers` read already, when they were: not read a second time. */
  read?: HeaderReader | undefined;
  /** The body text as read within bounds, or nothing. */
  body: string | undefined;
}

export interface WireRequest {
  /**
   * The host the caller asked for (never a redirect's), the last fallback for the limit's name.
   */
  host: string | undefined;
  /** The request's credentials; gathered only on the throttle path. */
  credentials: () => Credentials;
  /**
   * The text the request carried (path, query, body), which an upstream's message may echo:
   * gathered only when a throttle's message is judged. Without it every word is the upstream's.
   */
  text?: (() => readonly string[]) | undefined;
}

/** The error for a throttled response, or `undefined` when it is none. */
export function throttleFromWire(
  response: WireResponse,
  request: WireRequest,
  settings: ThrottleSettings,
): UpstreamRateLimitedError | undefined {
  const secrets = request.credentials().matcher();
  const signal = detect(response, {
    maxMs: settings.maxRetryAfterSeconds * 1000,
    treat503AsThrottle: settings.treat503AsThrottle,
    upstreamText: settings.upstreamText,
    secrets,
    requestText: request.text,
  });
  if (signal === undefined) return undefined;
  return errorFromSignal(signal, {
    limit: settings.limit,
    // Checked like a limit name: it may name the limit, and it reaches events and OTel.
    host: cleanHost(request.host, secrets),
    defaultRetryAfterSeconds: settings.defaultRetryAfterSeconds,
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
  });
}
