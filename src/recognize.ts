// Recognising a throttle in an error some other library threw. Vendor SDKs are never imported:
// their errors are read by shape (status, headers, body, URL in the places SDKs put them).

import {
  errorFromSignal,
  isUpstreamRateLimitedError,
  type UpstreamRateLimitedError,
} from "./errors.js";
import { isObject } from "./internal/is-object.js";
import { limitName, maxRetryAfterSeconds, nonNegative } from "./options.js";
import { detectThrottle } from "./signals/detect.js";
import type { HeaderInput } from "./signals/headers.js";

export interface RecognizeOptions {
  /** The tool author's name for the limit; wins over the upstream's name and host. */
  limit?: string;
  /** Delay to report when the upstream gave none. @default undefined (the field is omitted) */
  defaultRetryAfterSeconds?: number;
  /** Longest delay reported. @default 86400 */
  maxRetryAfterSeconds?: number;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean;
  /** The clock. @default new Date() */
  now?: Date;
}

/**
 * Returns an `UpstreamRateLimitedError` for an error that carries an upstream throttle
 * (an `UpstreamRateLimitedError` is returned as is), or `undefined`. Never throws for a
 * strange error value.
 */
export function toUpstreamRateLimitedError(
  error: unknown,
  options: RecognizeOptions = {},
): UpstreamRateLimitedError | undefined {
  if (isUpstreamRateLimitedError(error)) return error;
  const limit = limitName(options.limit);
  const max = maxRetryAfterSeconds(options.maxRetryAfterSeconds);
  const fallback =
    options.defaultRetryAfterSeconds === undefined
      ? undefined
      : nonNegative("defaultRetryAfterSeconds", options.defaultRetryAfterSeconds);
  if (!isObject(error)) return undefined;
  const parts = readParts(error);
  if (parts === undefined) return undefined;
  const signal = detectThrottle(
    { status: parts.status, headers: parts.headers, body: parts.body },
    {
      maxRetryAfterSeconds: max,
      treat503AsThrottle: options.treat503AsThrottle ?? false,
      ...(options.now ? { now: options.now } : {}),
    },
  );
  if (signal === undefined) return undefined;
  return errorFromSignal(signal, {
    limit,
    host: parts.host,
    defaultRetryAfterSeconds: fallback,
    maxRetryAfterSeconds: max,
    cause: error,
  });
}

interface ErrorParts {
  status: number;
  headers: HeaderInput;
  body: unknown;
  host: string | undefined;
}

/** Status, headers, body and URL from the places HTTP clients put them on their errors. */
function readParts(error: Record<string, unknown>): ErrorParts | undefined {
  const response = isObject(get(error, "response"))
    ? (get(error, "response") as Record<string, unknown>)
    : {};
  const status = firstNumber(
    get(error, "status"),
    get(error, "statusCode"),
    get(response, "status"),
    get(response, "statusCode"),
  );
  if (status === undefined) return undefined;
  const headers = firstObject(get(error, "headers"), get(response, "headers"));
  const body = firstDefined(
    get(error, "body"),
    get(response, "data"),
    get(response, "body"),
    get(error, "error"),
    get(error, "data"),
  );
  const request = get(error, "request");
  const config = get(error, "config");
  const url = firstString(
    get(error, "url"),
    get(response, "url"),
    isObject(request) ? get(request, "url") : undefined,
    isObject(config) ? get(config, "url") : undefined,
  );
  return { status, headers: (headers ?? {}) as HeaderInput, body, host: hostOf(url) };
}

/** A property read that survives throwing getters and proxies. */
function get(target: Record<string, unknown>, key: string): unknown {
  try {
    return target[key];
  } catch {
    return undefined;
  }
}

function firstNumber(...values: unknown[]): number | undefined {
  return values.find(
    (value): value is number => typeof value === "number" && Number.isInteger(value),
  );
}

function firstObject(...values: unknown[]): object | undefined {
  return values.find((value): value is object => isObject(value));
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === "string" && value !== "");
}

function firstDefined(...values: unknown[]): unknown {
  return values.find((value) => value !== undefined && value !== null);
}

/** Only the host name leaves the URL: never its path, query string or credentials. */
export function hostOf(url: string | URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
