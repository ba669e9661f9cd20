import { isObject } from "../internal/is-object.js";
import { bool, maxRetryAfterSeconds, stringList, upstreamText } from "../internal/options.js";
import { cleanLimitName } from "../untrusted/limit-name.js";
import { SecretMatcher } from "../untrusted/secrets.js";
import { bodyMessage, normalizeBody } from "./body.js";
import { bodyHeaders, withFallback } from "./body-headers.js";
import { AWS_THROTTLING_CODES, awsErrorName, bodyStatesThrottle } from "./body-throttles.js";
import { DelayContext, type DelaySource, resolveDelay } from "./delay.js";
import {
  AMZN_ERROR_TYPE,
  type Field,
  RATELIMIT_NAME,
  RATELIMIT_REASON,
  RATELIMIT_REMAINING,
  RESOURCE,
  RETRY_AFTER,
  STRIPE_REASON,
  X_RATE_LIMIT_REMAINING,
  X_RATELIMIT_REMAINING,
  X_RATELIMIT_RESET,
  ZENDESK_FIELDS,
} from "./fields.js";
import { type HeaderInput, type HeaderReader, readHeaders } from "./headers.js";
import { saysExhausted } from "./quota-families.js";
import { RATE_LIMIT_RPC_CODES } from "./rpc-codes.js";
import { zendeskExhausted } from "./vendor-resets.js";

export { RATE_LIMIT_RPC_CODES };

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
   * `"sanitized"`: the upstream's limit name (an identifier only) and message (cleaned) are
   * used; `"none"`: neither is taken from the upstream. @default "sanitized"
   */
  upstreamText?: UpstreamText | undefined;
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

// GitHub answers a secondary limit with 403 and one of these sentences (REST API docs,
// "Rate limits for the REST API").
const RATE_LIMIT_MESSAGE = /secondary rate limit|rate limit exceeded|abuse detection/i;

/** Whether a status could be a throttle at all: the cheap check before any header is read. */
export function mayBeThrottle(status: number): boolean {
  return status >= 400 && status < 600;
}

/**
 * Recognises an upstream throttle and works out how long to wait (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/tool-authors.md).
 * A 2xx counts only when its body states a throttle (GraphQL `RATE_LIMITED`, Google Maps'
 * `OVER_QUERY_LIMIT`…), so pass the body to have those recognised.
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
    upstreamText: upstreamText(options.upstreamText),
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
    options.upstreamText === undefined &&
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
}

/** `detectThrottle` with settings already checked; never throws. */
export function detect(
  response: ThrottleResponse,
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
  response: ThrottleResponse,
  settings: DetectSettings,
  now: number | undefined,
): ThrottleSignal | undefined {
  const status = response.status;
  if (!Number.isInteger(status)) return undefined;
  const success = status >= 200 && status < 300;
  // A 2xx is a throttle only by what its body says; without a body there is nothing to read.
  if (success ? response.body === undefined : !mayBeThrottle(status)) return undefined;
  const headers = readHeaders(response.headers);
  const verdict = success ? "body" : throttleVerdict(status, headers, settings.treat503AsThrottle);
  if (verdict === "no") return undefined;
  const body = normalizeBody(response.body);
  const message = bodyMessage(body, settings.secrets);
  if (verdict === "body" && !bodySaysThrottle(status, headers, body, message)) return undefined;

  // OpenRouter relays its rate-limit headers in the body: read after the response's own.
  const relayed = bodyHeaders(body);
  const fields = relayed === undefined ? headers : withFallback(headers, relayed);
  return signalFrom(status, new DelayContext(fields, body, now), settings, message);
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

/**
 * What status and headers alone say: a throttle, not one, or "it depends on the body" (an
 * upstream MCP server's JSON-RPC code, GitHub's secondary-limit sentence).
 */
export function throttleVerdict(
  status: number,
  headers: HeaderReader,
  treat503AsThrottle: boolean,
): "yes" | "no" | "body" {
  if (status === 429) return "yes";
  if (status === 503) return treat503AsThrottle && holds(headers, RETRY_AFTER) ? "yes" : "no";
  if (status < 400 || status >= 500) return "no";
  const exhausted = isExhausted(headers);
  if (status === 403) {
    // GitHub: primary limit (remaining 0 with a reset), secondary limit (Retry-After).
    if (exhausted && holds(headers, X_RATELIMIT_RESET)) return "yes";
    if (holds(headers, RETRY_AFTER)) return "yes";
    return "body";
  }
  // Any other 4xx is its own answer (a 404 is a 404) unless the upstream also says when to retry.
  return exhausted && holds(headers, RETRY_AFTER) ? "yes" : "body";
}

/** A known field's value, when the response may hold it. */
function read(headers: HeaderReader, field: Field): string | undefined {
  return (headers.fields & field.bit) === 0 ? undefined : headers.get(field.name);
}

function holds(headers: HeaderReader, field: Field): boolean {
  return (headers.fields & field.bit) !== 0 && headers.has(field.name);
}

const REMAINING_HEADERS = [X_RATELIMIT_REMAINING, X_RATE_LIMIT_REMAINING, RATELIMIT_REMAINING];

/** A remaining-quota header at 0 (`0.0`, or a 0 among per-policy values). */
export function isExhausted(headers: HeaderReader): boolean {
  for (const field of REMAINING_HEADERS) {
    if (saysExhausted(read(headers, field)?.trim())) return true;
  }
  return false;
}

function bodySaysThrottle(
  status: number,
  headers: HeaderReader,
  body: unknown,
  message: string | undefined,
): boolean {
  if (bodyStatesThrottle(body)) return true;
  if (AWS_THROTTLING_CODES.has(awsErrorName(read(headers, AMZN_ERROR_TYPE)))) return true;
  return status === 403 && message !== undefined && RATE_LIMIT_MESSAGE.test(message);
}

/**
 * The upstream's own name: GitHub's resource, a `RateLimit-Name` (GitLab), the IETF policy's
 * name, Stripe's reason, Atlassian's `RateLimit-Reason`, HubSpot's `policyName` in the body, the
 * endpoint of Zendesk's spent endpoint quota.
 */
function upstreamLimitName(context: DelayContext, secrets: SecretMatcher): string | undefined {
  const { headers, body } = context;
  const clean = secrets === SecretMatcher.EMPTY ? cleanWithoutSecrets : cleanLimitName;
  return (
    clean(read(headers, RESOURCE), secrets) ??
    clean(read(headers, RATELIMIT_NAME), secrets) ??
    clean(context.policy()?.name, secrets) ??
    clean(read(headers, STRIPE_REASON), secrets) ??
    clean(read(headers, RATELIMIT_REASON), secrets) ??
    (isObject(body) && typeof body.policyName === "string"
      ? clean(body.policyName, secrets)
      : undefined) ??
    clean(zendeskEndpoint(headers), secrets)
  );
}

/** The endpoint of Zendesk's spent endpoint quota. */
function zendeskEndpoint(headers: HeaderReader): string | undefined {
  return (headers.fields & ZENDESK_FIELDS) === 0 ? undefined : zendeskExhausted(headers)?.endpoint;
}

// Without request credentials a name's verdict depends on the name alone, and providers repeat
// a handful (`core`, `graphql`, `burst`): remembered, a few hundred at most.
const CLEAN_NAMES = new Map<string, string | null>();
const MAX_CLEAN_NAMES = 256;

function cleanWithoutSecrets(raw: string | undefined, secrets: SecretMatcher): string | undefined {
  if (raw === undefined) return undefined;
  const known = CLEAN_NAMES.get(raw);
  if (known !== undefined) return known ?? undefined;
  const clean = cleanLimitName(raw, secrets);
  if (raw.length <= 64) {
    if (CLEAN_NAMES.size >= MAX_CLEAN_NAMES) CLEAN_NAMES.clear();
    CLEAN_NAMES.set(raw, clean ?? null);
  }
  return clean;
}
