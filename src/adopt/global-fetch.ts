// The process's `fetch` as a door over the one guarded call: the same detection, cooldown, retry
// and events as `throttledFetch`. By default what the caller receives is what the upstream sent
// (a 429 still reads as a 429, from its own body); the tool call in progress is told.

import type { CooldownOption } from "../cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { callScope } from "../internal/call-scope.js";
import { bool, optionsObject } from "../internal/options.js";
import { type FetchInput, type FetchPartition, fetchDoor } from "../wrappers/fetch.js";
import { GuardedCall } from "../wrappers/guarded-call.js";
import { type RetryOption, retryFrom } from "../wrappers/retry.js";
import { rememberedResponse } from "../wrappers/sdk-fetch.js";
import { type ThrottleOptions, throttleSettings } from "../wrappers/settings.js";
import { watchedRun } from "../wrappers/watched-run.js";
import { observeGlobalDispatcher } from "./global-dispatcher.js";

/** Options of `throttleGlobalFetch`: `throttledFetch`'s, and what `fetch` does with a throttle. */
export interface ThrottleGlobalFetchOptions extends ThrottleOptions {
  /**
   * `true`: a throttle makes `fetch` throw `UpstreamRateLimitedError`, as `throttledFetch` does.
   * `false`: every response comes back as the upstream sent it (a 429 is still a 429 whose body
   * reads), and the tool call in progress is told, for `throttleServer`.
   * @default false
   */
  throwOnThrottle?: boolean | undefined;
  /**
   * Remember a throttle and answer later requests for the same upstream and credential without
   * sending them, until the delay has passed: `throttledFetch`'s `cooldown`, keyed by the
   * credential the request carries (a server-wide key is one cooldown for every caller). The
   * answer is a `429` with the time left in `Retry-After` (thrown as `UpstreamRateLimitedError`
   * with `throwOnThrottle`), and nothing else of what the upstream said. @default false
   */
  cooldown?: CooldownOption<FetchPartition> | undefined;
  /** Wait out short delays here and send again, within bounds, as `throttledFetch` does. @default false */
  retry?: RetryOption | undefined;
}

/** The install in force, and how to undo it. */
let installed: (() => void) | undefined;

/**
 * Puts detection on every `fetch` of the process: `globalThis.fetch`, and on Node undici's global
 * dispatcher (so an SDK that kept a reference to `fetch` at import is seen too). By default
 * nothing the rest of the process sees changes: inside a tool of a server adopted with
 * `throttleServer`, a throttle becomes the `rate_limited` result. Returns the function that puts
 * everything back. Opt-in, one install at a time: calling it again replaces the first install.
 *
 * @example
 * ```ts
 * import { throttleGlobalFetch } from "mcp-upstream-throttle";
 *
 * const restore = throttleGlobalFetch({ cooldown: true });
 * const response = await fetch("https://api.example.com/search?q=mcp");
 * console.log(response.status); // a 429 still reads as a 429
 * restore();
 * ```
 */
export function throttleGlobalFetch(options?: ThrottleGlobalFetchOptions): () => void {
  const given = optionsObject("options", options);
  const throwOnThrottle = bool("throwOnThrottle", given.throwOnThrottle);
  if (typeof globalThis.fetch !== "function") {
    throw new TypeError("`throttleGlobalFetch` needs a global `fetch`; this runtime has none");
  }
  // Only the options of the type are read: nothing else reaches the door.
  const detection: ThrottleOptions = {
    limit: given.limit,
    defaultRetryAfterSeconds: given.defaultRetryAfterSeconds,
    maxRetryAfterSeconds: given.maxRetryAfterSeconds,
    treat503AsThrottle: given.treat503AsThrottle,
    bodyTimeoutMs: given.bodyTimeoutMs,
    relayUpstreamText: given.relayUpstreamText,
    credentials: given.credentials,
    onEvent: given.onEvent,
  };
  // Every option is checked before anything changes: a bad one leaves the install in force.
  const retry = retryFrom(given.retry);
  const base = throttleSettings(detection);
  let original = globalThis.fetch;
  const settings = {
    ...base,
    fetch: (input: FetchInput, init?: RequestInit) => original(input, init),
  };
  const door = fetchDoor(settings, given.cooldown, {
    source: "throttleGlobalFetch",
    copy: !throwOnThrottle,
    ...(throwOnThrottle ? {} : { answer: handedBack }),
  });
  const guard = new GuardedCall(door, { ...settings, cooldown: given.cooldown, retry });
  // The first install is undone before the fetch to wrap is read: else that fetch is the first
  // install's, which this one's restore would put back.
  installed?.();
  original = globalThis.fetch;
  callScope();
  // An install that was undone, but that a foreign wrapper still calls: it passes requests on
  // untouched, so two installs never stack.
  let live = true;
  const patched = (input: FetchInput, init?: RequestInit): Promise<Response> =>
    live ? watchedRun(guard, input, init) : original(input, init);
  globalThis.fetch = patched as typeof fetch;
  const unobserve = observeGlobalDispatcher(base, original);
  const restore = () => {
    live = false;
    if (globalThis.fetch === patched) globalThis.fetch = original;
    unobserve();
    if (installed === restore) installed = undefined;
  };
  installed = restore;
  return restore;
}

/**
 * A throttle handed back as a response: the upstream's own (read from a copy, so its body is
 * whole), or, for a cooldown hit, a `429` with the time left.
 */
function handedBack(throttle: UpstreamRateLimitedError, met: unknown): Response {
  // `met` is the upstream's response, or nothing for a cooldown hit.
  return met === undefined ? rememberedResponse(throttle) : (met as Response);
}
