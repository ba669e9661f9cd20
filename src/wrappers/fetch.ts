import type { CooldownOption } from "../cooldown/cooldown.js";
import { once } from "../internal/once.js";
import { optionalFunction, optionsObject } from "../internal/options.js";
import { mayBeThrottle } from "../signals/detect.js";
import { type FetchInput, fetchCredentials } from "../untrusted/credentials.js";
import { fetchRequestText } from "../untrusted/request-text.js";
import { inputHost, methodOf, replayable, signalOf } from "./fetch-input.js";
import { type Door, GuardedCall, type Outcome } from "./guarded-call.js";
import { readThrottleBody } from "./read-body.js";
import { type RetryOption, retryFrom } from "./retry.js";
import { type ThrottleOptions, type ThrottleSettings, throttleSettings } from "./settings.js";
import {
  readSuccess,
  type SuccessPath,
  type SuccessPathOptions,
  successPath,
} from "./success-path.js";
import { throttleFromWire } from "./wire.js";

export type { FetchInput } from "../untrusted/credentials.js";
export { isReplayableBody } from "./fetch-input.js";

/** Names the caller a fetch call belongs to, for `cooldown`. */
export type FetchPartition = (input: FetchInput, init?: RequestInit) => string | undefined;

/** Options of `throttledFetch`: the shared ones, plus the fetch to wrap, `cooldown` and `retry`. */
export interface ThrottledFetchOptions extends ThrottleOptions, SuccessPathOptions {
  /** The fetch to wrap. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Remember a throttle and answer later calls for the same limit and caller from memory, with
   * the time actually remaining, until the delay has passed. @default false
   */
  cooldown?: CooldownOption<FetchPartition> | undefined;
  /** Wait out short delays here and retry, within bounds. @default false */
  retry?: RetryOption | undefined;
}

interface Settings extends ThrottleSettings {
  fetch: typeof fetch;
}

/**
 * A `fetch` that returns the upstream's `Response` untouched unless it is a throttle, and then
 * throws `UpstreamRateLimitedError`. Bad options throw here, at construction.
 *
 * @example
 * ```ts
 * import { throttledFetch } from "mcp-upstream-throttle";
 *
 * const github = throttledFetch({ limit: "github", cooldown: true, retry: { maxWaitMs: 2000 } });
 * // Inside a tool wrapped with withUpstreamThrottle: a throttle becomes the rate_limited result.
 * const response = await github("https://api.github.com/rate_limit");
 * ```
 */
export function throttledFetch(options?: ThrottledFetchOptions): typeof fetch {
  const given = optionsObject("options", options);
  const settings: Settings = {
    ...throttleSettings(given),
    fetch:
      optionalFunction<typeof fetch>("fetch", given.fetch) ??
      ((input, init) => globalThis.fetch(input, init)),
  };
  const custom = typeof given.cooldown === "object" ? given.cooldown.partition : undefined;
  let success: SuccessPath | undefined;
  const door: Door<FetchInput, RequestInit | undefined, Response> = {
    source: "throttledFetch",
    host: inputHost,
    credentials: (input, init) => fetchCredentials(input, init, settings.credentials),
    partition: custom && ((input, init) => custom(input, init)),
    send: settings.fetch,
    read: (response, input, init) =>
      // The success path: one integer comparison, no clone, no read.
      !mayBeThrottle(response.status)
        ? success && readSuccessful(response, success, input, init, settings)
        : throttleOf(response, input, init, settings),
    resend: (input, init) => ({
      method: methodOf(input, init),
      replayable: replayable(input, init),
      signal: signalOf(input, init),
    }),
  };
  const retry = retryFrom(given.retry);
  const guard = new GuardedCall(door, { ...settings, cooldown: given.cooldown, retry });
  success = successPath(given, guard.cooldown !== undefined);
  return (input, init) => guard.run(input, init);
}

/** What a successful response told, for the opt-ins that read one. */
async function readSuccessful(
  response: Response,
  success: SuccessPath,
  input: FetchInput,
  init: RequestInit | undefined,
  settings: Settings,
): Promise<Outcome> {
  const credentials = once(() => fetchCredentials(input, init, settings.credentials));
  const request = { host: inputHost(input), credentials };
  const told = await readSuccess(response, success, request, settings, signalOf(input, init));
  return { throttle: told.throttle, spent: told.spent, status: response.status, credentials };
}

/** The throttle a response carries, read within bounds, or `undefined`. */
async function throttleOf(
  response: Response,
  input: FetchInput,
  init: RequestInit | undefined,
  settings: Settings,
): Promise<Outcome> {
  const credentials = once(() => fetchCredentials(input, init, settings.credentials));
  const read = await readThrottleBody(response, {
    treat503AsThrottle: settings.treat503AsThrottle,
    timeoutMs: settings.bodyTimeoutMs,
    signal: signalOf(input, init),
  });
  if (read === undefined) return { credentials };
  const error = throttleFromWire(
    { status: response.status, headers: response.headers, read: read.headers, body: read.body },
    {
      // The host the caller asked for, not where a redirect ended up (the upstream picks that).
      host: inputHost(input),
      credentials,
      // What the caller wrote, which the upstream may echo: its words are not the upstream's.
      text: () => fetchRequestText(input, init),
    },
    settings,
  );
  // Only a copy was read: a throttle's own body is never handed to anyone, so it is let go
  // here, and its connection with it.
  if (error !== undefined && read.fromCopy) await response.body?.cancel().catch(() => {});
  return { throttle: error, credentials };
}
