// The options of the doors that read throttles on the wire (`throttledFetch`,
// `throttleInterceptor`, `sdkFetch`), checked once at construction, with their defaults.

import {
  bool,
  DEFAULT_BODY_TIMEOUT_MS,
  limitName,
  maxRetryAfterSeconds,
  nonNegative,
  relayUpstreamText,
  stringList,
  timerMs,
} from "../internal/options.js";
import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import type { UpstreamText } from "../signals/detect.js";

/**
 * Options shared by every wrapper that detects throttles on the wire (`throttledFetch`,
 * `throttleInterceptor`).
 */
export interface ThrottleOptions {
  /** Name of the limit these calls count against. @default the upstream's own name, else its host */
  limit?: string | undefined;
  /** Delay to report when the upstream gives none. @default undefined (the field is omitted) */
  defaultRetryAfterSeconds?: number | undefined;
  /** Longest delay reported; longer ones are clamped (SEP-3304 RL-8). @default 86400 */
  maxRetryAfterSeconds?: number | undefined;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
  /** Longest time spent reading a throttled response's body, in milliseconds. @default 1000 */
  bodyTimeoutMs?: number | undefined;
  /**
   * What of the upstream's own text may reach the result: `"sanitized"`, its limit name (an
   * identifier only) and message (cleaned, credentials redacted); `"none"`, neither.
   * @default "sanitized"
   */
  relayUpstreamText?: UpstreamText | undefined;
  /**
   * Credential values to keep out of results, limit names, events and stores besides those
   * the request carries where they are looked for (headers, URL): a key sent in the body, or
   * one in a header of no telling name. @default []
   */
  credentials?: readonly string[] | undefined;
  /**
   * Told of every throttle, cooldown hit, retry and store failure (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/observability.md).
   * @default none
   */
  onEvent?: ThrottleEventHook | undefined;
}

export interface ThrottleSettings {
  limit: string | undefined;
  defaultRetryAfterSeconds: number | undefined;
  maxRetryAfterSeconds: number;
  treat503AsThrottle: boolean;
  bodyTimeoutMs: number;
  upstreamText: UpstreamText;
  credentials: readonly string[];
  onEvent: ThrottleEventHook | undefined;
}

/** Checks the options once, at construction, and fills in the defaults. */
export function throttleSettings(options: ThrottleOptions): ThrottleSettings {
  const { defaultRetryAfterSeconds } = options;
  return {
    limit: limitName(options.limit),
    defaultRetryAfterSeconds:
      defaultRetryAfterSeconds === undefined
        ? undefined
        : nonNegative("defaultRetryAfterSeconds", defaultRetryAfterSeconds),
    maxRetryAfterSeconds: maxRetryAfterSeconds(options.maxRetryAfterSeconds),
    treat503AsThrottle: bool("treat503AsThrottle", options.treat503AsThrottle),
    bodyTimeoutMs: timerMs("bodyTimeoutMs", options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS),
    upstreamText: relayUpstreamText(options),
    credentials: [...stringList("credentials", options.credentials)],
    onEvent: eventHook(options.onEvent),
  };
}
