import { bool, maxRetryAfterSeconds, relayUpstreamText, stringList } from "../internal/options.js";
import { SecretMatcher } from "../untrusted/secrets.js";
import { bodyMessage, normalizeBody } from "./body.js";
import { bodyHeaders, withFallback } from "./body-headers.js";
import { DelayContext, resolveDelay } from "./delay.js";
import type { DelaySource } from "./delay-source.js";
import { Echo } from "./echo.js";
import { type HeaderInput, type HeaderReader, readHeaders } from "./headers.js";
import { RATE_LIMIT_RPC_CODES } from "./rpc-codes.js";
import { successEnvelope } from "./success-envelope.js";
import { upstreamLimitName } from "./upstream-limit-name.js";
import { bodySaysThrottle, isExhausted, mayBeThrottle, throttleVerdict } from "./verdict.js";

export { isExhausted, mayBeThrottle, RATE_LIMIT_RPC_CODES, throttleVerdict };

/** An upstream's answer, as much of it as the detector needs. */
export interface ThrottleResponse {
  /** The HTTP status. */
  status: number;
  /** The response headers: a `Headers`, a `Map`, or a plain object. */
  headers: HeaderInput;
  /** Parsed JSON, or raw text (parsed here when it looks like JSON). */
  body?: unknown;
}

/** Whether the upstream's own words may reach the result: its limit name and its message. */
export type UpstreamText = "sanitized" | "none";

/** Options of `detectThrottle`. */
export interface DetectOptions {
  /** The clock, for HTTP-dates and reset times. @default new Date() */
  now?: Date | undefined;
  /** Longest delay reported; longer ones are clamped (SEP-3304 RL-8). @default 86400 */
  maxRetryAfterSeconds?: number | undefined;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
  /**
   * The request's credential values: cut from the upstream's message, and never accepted in
   * a limit name. @default []
   */
  credentials?: readonly string[] | undefined;
  /**
   * What of the upstream's own text the signal relays: `"sanitized"`, its limit name (an
   * identifier only) and message (cleaned); `"none"`, neither. @default "sanitized"
   */
  relayUpstreamText?: UpstreamText | undefined;
}

/** What the detector found in a throttled response. */
export interface ThrottleSignal {
  /** The upstream's HTTP status. */
  status: number;
  /** The wait in whole milliseconds, clamped; absent when the upstream gave none. */
  retryAfterMs?: number;
  /** `retryAfterMs` rounded up to whole seconds. */
  retryAfterSeconds?: number;
  /** Where the delay was read (`"none"` when the upstream gave none). */
  delaySource: DelaySource;
  /** Only when the upstream sent an absolute time. */
  resetsAt?: Date;
  /** The upstream's own name for the limit. */
  limitName?: string;
  /** The upstream's own message, sanitized. */
  message?: string;
}

/**
 * Recognises an upstream throttle and works out how long to wait (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/tool-authors.md).
 * A 2xx counts only when its body's error envelope states a throttle (a top-level `errors[]`
 * with GraphQL's `RATE_LIMITED`, a top-level `error`, Google Maps' `status` beside its
 * `error_message`), never a record inside the data; pass the body to have those recognised.
 * Pure: no I/O, never throws, whatever it is given (garbage, proxies, throwing getters); returns
 * `undefined` when it is no throttle. Bad options throw a `TypeError` or `RangeError`.
 *
 * @example
 * ```ts
 * import { detectThrottle } from "mcp-upstream-throttle";
 *
 * const signal = detectThrottle({
 *   status: 429,
 *   headers: { "retry-after": "30", "x-ratelimit-resource": "search" },
 * });
 * // signal?.retryAfterSeconds === 30, signal?.delaySource === "retry-after"
 * ```
 */
export function detectThrottle(
  response: ThrottleResponse,
  options: DetectOptions = {},
): ThrottleSignal | undefined {
  if (isDefault(options)) return detect(response, DEFAULT_SETTINGS);
  const settings: DetectSettings = {
    maxMs: maxRetryAfterSeconds(options.maxRetryAfterSeconds) * 1000,
    treat503AsThrottle: bool("treat503AsThrottle", options.treat503AsThrottle),
    upstreamText: relayUpstreamText(options),
    secrets: matcherOf(stringList("credentials", options.credentials)),
  };
  if (options.now !== undefined && !(options.now instanceof Date)) {
    throw new TypeError("`now` must be a Date");
  }
  return detect(response, settings, options.now?.getTime());
}

/** The settings of `detectThrottle` called without options, checked once. */
const DEFAULT_SETTINGS: DetectSettings = {
  maxMs: maxRetryAfterSeconds(undefined) * 1000,
  treat503AsThrottle: false,
  upstreamText: "sanitized",
  secrets: SecretMatcher.EMPTY,
};

function isDefault(options: DetectOptions): boolean {
  return (
    options.maxRetryAfterSeconds === undefined &&
    options.treat503AsThrottle === undefined &&
    options.relayUpstreamText === undefined &&
    options.credentials === undefined &&
    options.now === undefined
  );
}

function matcherOf(credentials: readonly string[]): SecretMatcher {
  return credentials.length === 0 ? SecretMatcher.EMPTY : new SecretMatcher(credentials);
}

/** What every wrapper decided once, at construction, and the request's secrets. */
export interface DetectSettings {
  maxMs: number;
  treat503AsThrottle: boolean;
  upstreamText: UpstreamText;
  secrets: SecretMatcher;
  /**
   * The text the request carried (its path, query values, body): an upstream's message that
   * only echoes it states no throttle and no wait. Gathered only when a message is judged.
   */
  requestText?: (() => readonly string[]) | undefined;
}

/** A response as the wrappers hand it over: its headers may have been read already. */
export interface WireThrottle extends ThrottleResponse {
  /** `headers`, as `readHeaders` read them (the body read asked them for its verdict first). */
  read?: HeaderReader | undefined;
}

/** `detectThrottle` with settings already checked; never throws. */
export function detect(
  response: WireThrottle,
  settings: DetectSettings,
  nowMs?: number,
): ThrottleSignal | undefined {
  try {
    return detectUnsafe(response, settings, nowMs);
  } catch {
    // Only a hostile value can get here (a proxy, a throwing getter): it is no signal.
    return undefined;
  }
}

function detectUnsafe(
  response: WireThrottle,
  settings: DetectSettings,
  now: number | undefined,
): ThrottleSignal | undefined {
  const status = response.status;
  if (!Number.isInteger(status)) return undefined;
  const success = status >= 200 && status < 300;
  // A 2xx is a throttle only by what its body says; without a body there is nothing to read.
  if (success ? response.body === undefined : !mayBeThrottle(status)) return undefined;
  const headers = response.read ?? readHeaders(response.headers);
  const verdict = success ? "body" : throttleVerdict(status, headers, settings.treat503AsThrottle);
  if (verdict === "no") return undefined;
  // On a 2xx only the provider's error envelope speaks, never a record inside the data.
  const body = success
    ? successEnvelope(normalizeBody(response.body))
    : normalizeBody(response.body);
  if (success && body === undefined) return undefined;
  const message = bodyMessage(body, settings.secrets);
  const echo =
    message === undefined || settings.requestText === undefined
      ? undefined
      : new Echo(message, settings.requestText);
  if (verdict === "body" && !bodySaysThrottle(status, headers, body, message, echo))
    return undefined;

  // OpenRouter relays its rate-limit headers in the body: read after the response's own.
  const relayed = bodyHeaders(body);
  const fields = relayed === undefined ? headers : withFallback(headers, relayed);
  // A wait stated only in the message's prose counts on a refusal, never on a 2xx.
  const context = new DelayContext(fields, body, now, success ? undefined : message, echo);
  return signalFrom(status, context, settings, message);
}

/** The signal of a response known to be a throttle (or, for pre-emption, a spent quota). */
export function signalFrom(
  status: number,
  context: DelayContext,
  settings: DetectSettings,
  message: string | undefined,
): ThrottleSignal {
  const maxMs = settings.maxMs;
  const signal: ThrottleSignal = { status, delaySource: "none" };
  const delay = resolveDelay(context);
  if (delay !== undefined) {
    signal.retryAfterMs = Math.min(delay.ms, maxMs);
    signal.retryAfterSeconds = Math.ceil(signal.retryAfterMs / 1000);
    signal.delaySource = delay.source;
    // A clamped delay no longer ends at the upstream's reset time; reporting both would disagree.
    const resetsAt = delay.resetsAt;
    if (resetsAt && delay.ms <= maxMs && Number.isFinite(resetsAt.getTime()))
      signal.resetsAt = resetsAt;
  }
  if (settings.upstreamText === "none") return signal;
  const limitName = upstreamLimitName(context, settings.secrets);
  if (limitName !== undefined) signal.limitName = limitName;
  if (message !== undefined) signal.message = message;
  return signal;
}
