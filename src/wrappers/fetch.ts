import type { CooldownOption } from "../cooldown/cooldown.js";
import { once } from "../internal/once.js";
import { optionalFunction, optionsObject } from "../internal/options.js";
import type { EventSource } from "../observability/events.js";
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
import { watchedRun } from "./watched-run.js";
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

/** The checked settings of a fetch door: the shared ones and the fetch it sends with. */
export interface FetchSettings extends ThrottleSettings {
  fetch: typeof fetch;
}

type Settings = FetchSettings;

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
  let success: SuccessPath | undefined;
  const door = fetchDoor(settings, given.cooldown, {
    source: "throttledFetch",
    success: () => success,
  });
  const retry = retryFrom(given.retry);
  const guard = new GuardedCall(door, { ...settings, cooldown: given.cooldown, retry });
  success = successPath(given, guard.cooldown !== undefined);
  return (input, init) => watchedRun(guard, input, init);
}

/** How a fetch door differs from `throttledFetch`'s own. */
export interface FetchDoorShape {
  source: EventSource;
  /** The success path's opt-ins, once known. */
  success?: (() => SuccessPath | undefined) | undefined;
  /**
   * Read a throttle from a copy, so the response itself reaches its caller whole (a door that
   * hands throttles back as responses).
   */
  copy?: boolean | undefined;
  /** What a throttle becomes; without it, it is thrown. */
  answer?: Door<FetchInput, RequestInit | undefined, Response>["answer"];
}

/** The door of a fetch: how it is sent, read, retried; every door over `fetch` is this one. */
export function fetchDoor(
  settings: Settings,
  cooldown: CooldownOption<FetchPartition> | undefined,
  shape: FetchDoorShape,
): Door<FetchInput, RequestInit | undefined, Response> {
  const custom = typeof cooldown === "object" ? cooldown.partition : undefined;
  const success = shape.success ?? (() => undefined);
  const copy = shape.copy === true;
  return {
    source: shape.source,
    host: inputHost,
    credentials: (input, init) => fetchCredentials(input, init, settings.credentials),
    partition: custom && ((input, init) => custom(input, init)),
    send: settings.fetch,
    read: (response, input, init) => {
      // The success path: one integer comparison, no clone, no read.
      if (!mayBeThrottle(response.status)) {
        const opted = success();
        return opted && readSuccessful(response, opted, input, init, settings);
      }
      return throttleOf(copy ? response.clone() : response, input, init, settings);
    },
    resend: (input, init) => ({
      method: methodOf(input, init),
      replayable: replayable(input, init),
      signal: signalOf(input, init),
    }),
    ...(shape.answer === undefined ? {} : { answer: shape.answer }),
    // A throttled response handed on whole is let go before it is sent again.
    ...(copy
      ? { dropped: (response: Response) => void response.body?.cancel().catch(() => {}) }
      : {}),
  };
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
