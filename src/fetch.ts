import { type ThrottleOptions, type ThrottleSettings, throttleSettings } from "./options.js";
import { readThrottleBody } from "./read-body.js";
import { hostOf } from "./recognize.js";
import { type FetchInput, requestSecrets } from "./redact.js";
import { mayBeThrottle } from "./signals/detect.js";
import { throttleFromWire } from "./wire.js";

export interface ThrottledFetchOptions extends ThrottleOptions {
  /** The fetch to wrap. @default globalThis.fetch */
  fetch?: typeof fetch;
}

interface Settings extends ThrottleSettings {
  fetch: typeof fetch;
}

function settingsFrom(options: ThrottledFetchOptions): Settings {
  const inner = options.fetch;
  if (inner !== undefined && typeof inner !== "function") {
    throw new TypeError("`fetch` must be a function");
  }
  return {
    ...throttleSettings(options),
    fetch: inner ?? ((input, init) => globalThis.fetch(input, init)),
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
  const error = throttleFromWire(
    { status: response.status, headers: response.headers, body: read.body },
    { host: hostOf(response.url || requestUrl(input)), secrets: () => requestSecrets(input, init) },
    settings,
  );
  if (error === undefined) return response;
  throw error;
}

function requestUrl(input: FetchInput): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}
