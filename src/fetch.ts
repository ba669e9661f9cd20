import { errorFromSignal } from "./errors.js";
import { limitName, maxRetryAfterSeconds, nonNegative } from "./options.js";
import { BODY_TIMEOUT_MS, readThrottleBody } from "./read-body.js";
import { hostOf } from "./recognize.js";
import { type FetchInput, redactSecrets, requestSecrets } from "./redact.js";
import { detectThrottle, mayBeThrottle } from "./signals/detect.js";

export interface ThrottledFetchOptions {
  /** Name of the limit this fetch calls against. @default the upstream's own name, else its host */
  limit?: string;
  /** The fetch to wrap. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Delay to report when the upstream gives none. @default undefined (the field is omitted) */
  defaultRetryAfterSeconds?: number;
  /** Longest delay reported; longer ones are clamped (SEP-3304 RL-8). @default 86400 */
  maxRetryAfterSeconds?: number;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean;
  /** Longest time spent reading a throttled response's body. @default 1000 */
  bodyTimeoutMs?: number;
}

interface Settings {
  limit: string | undefined;
  fetch: typeof fetch;
  defaultRetryAfterSeconds: number | undefined;
  maxRetryAfterSeconds: number;
  treat503AsThrottle: boolean;
  bodyTimeoutMs: number;
}

function settingsFrom(options: ThrottledFetchOptions): Settings {
  const { defaultRetryAfterSeconds, fetch: inner, bodyTimeoutMs } = options;
  if (inner !== undefined && typeof inner !== "function") {
    throw new TypeError("`fetch` must be a function");
  }
  return {
    limit: limitName(options.limit),
    fetch: inner ?? ((input, init) => globalThis.fetch(input, init)),
    defaultRetryAfterSeconds:
      defaultRetryAfterSeconds === undefined
        ? undefined
        : nonNegative("defaultRetryAfterSeconds", defaultRetryAfterSeconds),
    maxRetryAfterSeconds: maxRetryAfterSeconds(options.maxRetryAfterSeconds),
    treat503AsThrottle: options.treat503AsThrottle ?? false,
    bodyTimeoutMs:
      bodyTimeoutMs === undefined ? BODY_TIMEOUT_MS : nonNegative("bodyTimeoutMs", bodyTimeoutMs),
  };
}

/**
 * A `fetch` that returns the upstream's `Response` untouched unless it is a throttle, and then
 * throws `UpstreamRateLimitedError`. Bad options throw here, at construction.
 */
export function throttledFetch(options: ThrottledFetchOptions = {}): typeof fetch {
  const settings = settingsFrom(options);
  return async (input, init) => {
    const response = await settings.fetch(input, init);
    // The success path: one integer comparison, no clone, no read.
    if (!mayBeThrottle(response.status)) return response;
    return checkThrottle(response, input, init, settings);
  };
}

async function checkThrottle(
  response: Response,
  input: FetchInput,
  init: RequestInit | undefined,
  settings: Settings,
): Promise<Response> {
  const read = await readThrottleBody(response, {
    treat503AsThrottle: settings.treat503AsThrottle,
    timeoutMs: settings.bodyTimeoutMs,
    signal: init?.signal ?? (input instanceof Request ? input.signal : undefined),
  });
  if (read === undefined) return response;
  const detected = detectThrottle(
    { status: response.status, headers: response.headers, body: read.body },
    {
      maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
      treat503AsThrottle: settings.treat503AsThrottle,
    },
  );
  if (detected === undefined) return response;
  if (detected.message !== undefined) {
    detected.message = redactSecrets(detected.message, requestSecrets(input, init));
  }
  throw errorFromSignal(detected, {
    limit: settings.limit,
    host: hostOf(response.url || requestUrl(input)),
    defaultRetryAfterSeconds: settings.defaultRetryAfterSeconds,
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
  });
}

function requestUrl(input: FetchInput): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}
