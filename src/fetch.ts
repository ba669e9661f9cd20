import {
  type CooldownOption,
  cooldownFrom,
  cooldownKey,
  credentialPartition,
  partitionFrom,
} from "./cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "./errors.js";
import { type ThrottleOptions, type ThrottleSettings, throttleSettings } from "./options.js";
import { readThrottleBody } from "./read-body.js";
import { hostOf } from "./recognize.js";
import { type FetchInput, requestHeaders, requestSecrets, requestUrl } from "./redact.js";
import { type RetryOption, retryFrom, sleep } from "./retry.js";
import { mayBeThrottle } from "./signals/detect.js";
import { throttleFromWire } from "./wire.js";

/** Names the caller a fetch call belongs to, for `cooldown`. */
export type FetchPartition = (input: FetchInput, init?: RequestInit) => string | undefined;

export interface ThrottledFetchOptions extends ThrottleOptions {
  /** The fetch to wrap. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Remember a throttle and answer later calls for the same limit and caller from memory, with
   * the time actually remaining, until the delay has passed. @default false
   */
  cooldown?: CooldownOption<FetchPartition>;
  /** Wait out short delays here and retry, within bounds. @default false */
  retry?: RetryOption;
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
  const cooldown = cooldownFrom(options.cooldown);
  const retry = retryFrom(options.retry);
  if (cooldown === undefined && retry === undefined) {
    return async (input, init) => {
      const response = await settings.fetch(input, init);
      // The success path: one integer comparison, no clone, no read.
      if (!mayBeThrottle(response.status)) return response;
      const error = await throttleOf(response, input, init, settings);
      if (error === undefined) return response;
      throw error;
    };
  }
  const partition = partitionFrom<FetchPartition>(options.cooldown, (input, init) =>
    credentialPartition(requestHeaders(input, init)),
  );
  return async (input, init) => {
    const key =
      cooldown &&
      cooldownKey(
        settings.limit ?? hostOf(requestUrl(input)) ?? "upstream",
        partition(input, init),
      );
    const active = key === undefined ? undefined : await cooldown?.active(key);
    if (active !== undefined) throw active;
    for (let attempt = 0; ; attempt += 1) {
      const response = await settings.fetch(input, init);
      if (!mayBeThrottle(response.status)) return response;
      const error = await throttleOf(response, input, init, settings);
      if (error === undefined) return response;
      const wait = retry?.waitFor(error, attempt, methodOf(input, init), replayable(input, init));
      if (wait !== undefined) {
        await sleep(wait, signalOf(input, init));
        continue;
      }
      if (key !== undefined) await cooldown?.remember(key, error);
      throw error;
    }
  };
}

/** The throttle a response carries, read within bounds, or `undefined`. */
async function throttleOf(
  response: Response,
  input: FetchInput,
  init: RequestInit | undefined,
  settings: Settings,
): Promise<UpstreamRateLimitedError | undefined> {
  const read = await readThrottleBody(response, {
    treat503AsThrottle: settings.treat503AsThrottle,
    timeoutMs: settings.bodyTimeoutMs,
    signal: signalOf(input, init),
  });
  if (read === undefined) return undefined;
  return throttleFromWire(
    { status: response.status, headers: response.headers, body: read.body },
    { host: hostOf(response.url || requestUrl(input)), secrets: () => requestSecrets(input, init) },
    settings,
  );
}

function signalOf(
  input: FetchInput,
  init: RequestInit | undefined,
): AbortSignal | null | undefined {
  return init?.signal ?? (input instanceof Request ? input.signal : undefined);
}

function methodOf(input: FetchInput, init: RequestInit | undefined): string {
  return init?.method ?? (input instanceof Request ? input.method : "GET");
}

/** Whether the request can be sent again: a stream body (or a `Request`'s) is spent after one. */
function replayable(input: FetchInput, init: RequestInit | undefined): boolean {
  if (init?.body !== undefined && init.body !== null) return !(init.body instanceof ReadableStream);
  return !(input instanceof Request && input.body !== null);
}
