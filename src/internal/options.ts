// Option checks shared by every entry point: one message per mistake, naming the option.
// Everything a caller configures is checked here, once, at construction.

import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import type { UpstreamText } from "../signals/detect.js";

/** The default of `maxRetryAfterSeconds`: a day. Longer delays are clamped to it (SEP-3304). */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 86_400;

/** The longest delay a timer can wait: setTimeout fires at once for anything longer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The clamp of SEP-3304 RL-8, checked. */
export function maxRetryAfterSeconds(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_RETRY_AFTER_SECONDS;
  return nonNegative("maxRetryAfterSeconds", value);
}

export function nonNegative(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`\`${name}\` must be a finite number >= 0, got ${describe(value)}`);
  }
  return value;
}

/** A duration a timer waits for: 0 to 2^31−1 milliseconds. */
export function timerMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = nonNegative(name, value);
  if (ms > MAX_TIMER_MS) {
    throw new RangeError(`\`${name}\` must be at most ${MAX_TIMER_MS} ms (2^31-1), got ${ms}`);
  }
  return ms;
}

export function bool(name: string, value: unknown, fallback = false): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new TypeError(`\`${name}\` must be true or false, got ${describe(value)}`);
  }
  return value;
}

export function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") {
    throw new TypeError(`\`${name}\` must be a function, got ${describe(value)}`);
  }
  return value as F;
}

export function stringList(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new TypeError(`\`${name}\` must be an array of strings`);
  }
  return value;
}

export function upstreamText(value: unknown): UpstreamText {
  if (value === undefined) return "sanitized";
  if (value !== "sanitized" && value !== "none") {
    throw new TypeError(`\`upstreamText\` must be "sanitized" or "none", got ${describe(value)}`);
  }
  return value;
}

export function limitName(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`\`limit\` must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/** An options argument: an object or nothing. */
export function optionsObject<T extends object>(name: string, value: T | undefined): T {
  if (value === undefined) return {} as T;
  if (typeof value !== "object" || value === null) {
    throw new TypeError(`\`${name}\` must be an object, got ${describe(value)}`);
  }
  return value;
}

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
   * `"sanitized"`: the upstream's own limit name (an identifier only) and message (cleaned,
   * credentials redacted) may reach the result; `"none"`: neither is taken from the upstream.
   * @default "sanitized"
   */
  upstreamText?: UpstreamText | undefined;
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

export const DEFAULT_BODY_TIMEOUT_MS = 1000;

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
    upstreamText: upstreamText(options.upstreamText),
    credentials: [...stringList("credentials", options.credentials)],
    onEvent: eventHook(options.onEvent),
  };
}

/** A value as an error message shows it: short, and never a thrown getter. */
function describe(value: unknown): string {
  try {
    const text = typeof value === "string" ? JSON.stringify(value) : String(value);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  } catch {
    return typeof value;
  }
}
