// Vendor SDK errors that are not shaped like HTTP (no status with headers at the top), read by
// their documented names and fields, without importing the SDKs. Each yields the parts the
// detector reads, marked as a throttle: the SDK has already decided it is one.

import { readProperty as get, isObject } from "../internal/is-object.js";
import { AWS_THROTTLING_CODES, bodyStatesThrottle } from "../signals/body-throttles.js";
import type { ThrottleSignal } from "../signals/detect.js";
import type { HeaderInput } from "../signals/headers.js";
import { parseDeltaSeconds } from "../signals/retry-after.js";

export interface SdkThrottleParts {
  /** The HTTP status the SDK saw, else 429. */
  status: number;
  headers: HeaderInput;
  body: unknown;
  /** A wait the SDK computed itself (discord.js, Slack), used when the headers give none. */
  retryAfterMs?: number;
}

function httpStatus(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 400 && value < 600
    ? value
    : 429;
}

function waitMs(value: unknown, unitMs: number): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return Math.ceil(value * unitMs);
}

function headersOf(value: unknown): HeaderInput {
  return (isObject(value) ? value : {}) as HeaderInput;
}

function withWait(parts: SdkThrottleParts, ms: number | undefined): SdkThrottleParts {
  if (ms !== undefined) parts.retryAfterMs = ms;
  return parts;
}

/** `@slack/web-api` with `rejectRateLimitedCalls`: `retryAfter` is its Retry-After, in seconds. */
function slack(error: Record<string, unknown>): SdkThrottleParts | undefined {
  const code = get(error, "code");
  if (code === "slack_webapi_rate_limited_error") {
    const parts = { status: 429, headers: {}, body: { ok: false, error: "ratelimited" } };
    return withWait(parts, waitMs(get(error, "retryAfter"), 1000));
  }
  // A method that answers `{ ok: false, error: "ratelimited" }` with a 200.
  const data = get(error, "data");
  if (code === "slack_webapi_platform_error" && isObject(data) && data.error === "ratelimited") {
    return { status: 429, headers: {}, body: data };
  }
  return undefined;
}

/**
 * AWS SDK v3 (smithy): a throttling error by name (THROTTLING_ERROR_CODES) or by
 * `$retryable.throttling`; the status from `$metadata`, headers from `$response`.
 */
function aws(error: Record<string, unknown>): SdkThrottleParts | undefined {
  const metadata = get(error, "$metadata");
  if (!isObject(metadata)) return undefined;
  const name = get(error, "name");
  const retryable = get(error, "$retryable");
  const throttling = isObject(retryable) && retryable.throttling === true;
  if (!throttling && !AWS_THROTTLING_CODES.has(name)) return undefined;
  const response = get(error, "$response");
  const parts = {
    status: httpStatus(metadata.httpStatusCode),
    headers: headersOf(isObject(response) ? response.headers : undefined),
    body: { __type: name, message: get(error, "message") },
  };
  // Lambda's TooManyRequestsException carries the service's Retry-After as `retryAfterSeconds`
  // (a string in the model, a number where a client parsed it).
  return withWait(parts, secondsFieldMs(get(error, "retryAfterSeconds")));
}

function secondsFieldMs(value: unknown): number | undefined {
  if (typeof value === "number") return waitMs(value, 1000);
  const seconds = typeof value === "string" ? parseDeltaSeconds(value.trim()) : undefined;
  return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
}

/**
 * discord.js' `@discordjs/rest` with `rejectOnRateLimit`: a `RateLimitError` whose
 * `timeToReset` is the wait in milliseconds (Retry-After or X-RateLimit-Reset-After, plus the
 * SDK's offset); no response is kept.
 */
function discord(error: Record<string, unknown>): SdkThrottleParts | undefined {
  const name = get(error, "name");
  if (typeof name !== "string" || !name.startsWith("RateLimitError")) return undefined;
  const ms = waitMs(get(error, "timeToReset"), 1);
  if (ms === undefined) return undefined;
  return { status: 429, headers: {}, body: undefined, retryAfterMs: ms };
}

/**
 * `@linear/sdk`: a `LinearError` of type `Ratelimited`, its GraphQL `errors`, and the raw
 * response's headers (`X-RateLimit-Requests-Reset`…) under `raw.response`.
 */
function linear(error: Record<string, unknown>): SdkThrottleParts | undefined {
  const raw = get(error, "raw");
  const response = isObject(raw) ? get(raw, "response") : undefined;
  if (!isObject(response)) return undefined;
  // The SDK types the error from `extensions.type`; the API's `extensions.code` says it too.
  const body = { errors: get(response, "errors") };
  if (get(error, "type") !== "Ratelimited" && !bodyStatesThrottle(body)) return undefined;
  return {
    status: httpStatus(get(error, "status")),
    headers: headersOf(get(response, "headers")),
    body,
  };
}

const READERS = [slack, aws, discord, linear];

/** The throttle a non-HTTP SDK error stands for, or `undefined`. May throw on hostile values. */
export function sdkThrottleParts(error: Record<string, unknown>): SdkThrottleParts | undefined {
  for (const read of READERS) {
    const parts = read(error);
    if (parts !== undefined) return parts;
  }
  return undefined;
}

/**
 * The detector's signal (from `parts` read as a 429) made true to the SDK: its own status, and
 * its own wait when the headers gave none (a wait read from the message's prose yields to it).
 */
export function sdkSignal(signal: ThrottleSignal, parts: SdkThrottleParts, maxMs: number): void {
  signal.status = parts.status;
  const open = signal.delaySource === "none" || signal.delaySource === "message";
  if (!open || parts.retryAfterMs === undefined) return;
  signal.retryAfterMs = Math.min(parts.retryAfterMs, maxMs);
  signal.retryAfterSeconds = Math.ceil(signal.retryAfterMs / 1000);
  signal.delaySource = "sdk-retry-after";
}
