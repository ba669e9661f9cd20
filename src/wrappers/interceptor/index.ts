// throttleInterceptor: the detection of throttledFetch for undici 7's dispatcher `compose` API,
// so `undici.request`, `undici.stream` and `fetch` with a composed dispatcher get the same
// UpstreamRateLimitedError. undici is not imported: an interceptor is a function of `dispatch`,
// and the handler speaks undici 7's handler protocol structurally.

import { type CooldownOption, cooldownFrom, partitionFrom } from "../../cooldown/cooldown.js";
import { isThenable } from "../../cooldown/hooks.js";
import type { UpstreamRateLimitedError } from "../../errors/upstream-rate-limited-error.js";
import { optionsObject, type ThrottleOptions, throttleSettings } from "../../internal/options.js";
import { urlHost } from "../../internal/url-host.js";
import { emitEvent, throttleEvent } from "../../observability/events.js";
import { type Credentials, dispatchCredentials } from "../../untrusted/credentials.js";
import { reportPreempt, type SuccessPathOptions, successPath } from "../success-path.js";
import {
  type Dispatch,
  type DispatchHandler,
  type DispatchOptions,
  failBeforeDispatch,
} from "./dispatch.js";
import { type SpentListener, SuccessHandler, type ThrottleListener } from "./success-handler.js";
import { ThrottleHandler } from "./throttle-handler.js";

export type {
  Dispatch,
  DispatchController,
  DispatchHandler,
  DispatchOptions,
  ResponseHeaders,
} from "./dispatch.js";

/** Names the caller a dispatch belongs to, for `cooldown`. */
export type DispatchPartition = (options: DispatchOptions) => string | undefined;

/** Options of `throttleInterceptor`: the shared ones, `cooldown`, and the success-path opt-ins. */
export interface ThrottleInterceptorOptions extends ThrottleOptions, SuccessPathOptions {
  /**
   * Remember a throttle and fail later requests for the same limit and caller at once, with
   * the time actually remaining, until the delay has passed. @default false
   */
  cooldown?: CooldownOption<DispatchPartition> | undefined;
}

/**
 * An undici 7 interceptor: `new Agent().compose(throttleInterceptor({ limit: "github" }))`.
 * A response that is no throttle streams through untouched. A throttle fails the request with
 * `UpstreamRateLimitedError` after reading at most 64 KiB of its body within `bodyTimeoutMs`:
 * a body that ends within the cap leaves the socket to its pool, a longer one closes it.
 * Bad options throw here, at construction.
 *
 * @example
 * ```ts
 * import { throttleInterceptor } from "mcp-upstream-throttle";
 * import { Agent, request } from "undici";
 *
 * const github = new Agent().compose(throttleInterceptor({ limit: "github" }));
 * const response = await request("https://api.github.com/rate_limit", { dispatcher: github });
 * ```
 */
export function throttleInterceptor(
  options?: ThrottleInterceptorOptions,
): (dispatch: Dispatch) => Dispatch {
  const given = optionsObject("options", options);
  const settings = throttleSettings(given);
  const cooldown = cooldownFrom(given.cooldown, {
    source: "throttleInterceptor",
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    onEvent: settings.onEvent,
  });
  const success = successPath(given, cooldown !== undefined);
  const report = (error: UpstreamRateLimitedError) =>
    emitEvent(settings.onEvent, throttleEvent(error, "throttleInterceptor"));
  // The success-path opt-ins put their handler in front; without them there is none.
  const handlerOf = (
    opts: DispatchOptions,
    handler: DispatchHandler,
    origin: DispatchOptions["origin"],
    onThrottle: ThrottleListener,
    onSpent?: SpentListener,
  ): DispatchHandler => {
    const inner = new ThrottleHandler(opts, handler, settings, onThrottle, origin);
    return success === undefined
      ? inner
      : new SuccessHandler(opts, inner, success, settings, onThrottle, onSpent, origin);
  };
  // The origin each downstream handler first asked for. An interceptor that dispatches again
  // with the same handler (undici's redirect interceptor, for each hop; its retry interceptor)
  // keeps the name of the host the caller asked for, not the one a redirect picked.
  const asked = new WeakMap<DispatchHandler, DispatchOptions["origin"]>();
  const askedOrigin = (opts: DispatchOptions, handler: DispatchHandler) => {
    if (typeof handler !== "object" || handler === null) return opts.origin;
    if (asked.has(handler)) return asked.get(handler);
    asked.set(handler, opts.origin);
    return opts.origin;
  };
  if (cooldown === undefined) {
    return (dispatch) => (opts: DispatchOptions, handler: DispatchHandler) =>
      dispatch(opts, handlerOf(opts, handler, askedOrigin(opts, handler), report));
  }
  const custom = partitionFrom<DispatchPartition | undefined>(given.cooldown, undefined);
  const lookupOf = (
    opts: DispatchOptions,
    origin: DispatchOptions["origin"],
    credentials?: Credentials,
  ) =>
    cooldown.lookup({
      limit: settings.limit,
      host: () => urlHost(origin),
      credentials: () => credentials ?? dispatchCredentials(opts, settings.credentials),
      partition: custom && (() => custom(opts)),
    });
  return (dispatch) => (opts: DispatchOptions, handler: DispatchHandler) => {
    const origin = askedOrigin(opts, handler);
    const onThrottle = (error: UpstreamRateLimitedError, credentials: Credentials) => {
      report(error);
      cooldown.remember(lookupOf(opts, origin, credentials), error).catch(() => {});
    };
    // Made only when pre-emption is on: the default success path allocates nothing more.
    const onSpent: SpentListener | undefined = success?.preempt
      ? (error, credentials, status) => {
          cooldown.remember(lookupOf(opts, origin, credentials), error).catch(() => {});
          reportPreempt(settings.onEvent, error, status, "throttleInterceptor");
        }
      : undefined;
    // The success path: the store knows nothing is cooling down; dispatch at once.
    if (!cooldown.mayApply(settings.limit, opts, originHost))
      return dispatch(opts, handlerOf(opts, handler, origin, onThrottle, onSpent));
    const answer = cooldown.check(lookupOf(opts, origin));
    // A store that answered at once (memory, a Redis view): dispatch now, or fail now.
    if (!isThenable(answer)) {
      if (answer === undefined)
        return dispatch(opts, handlerOf(opts, handler, origin, onThrottle, onSpent));
      // Failed on a later microtask, as an asynchronous answer would be: undici's callers are
      // not all ready for an error before `dispatch` returns.
      queueMicrotask(() => failBeforeDispatch(handler, answer));
      return true;
    }
    // The store may answer asynchronously (Redis): dispatch once it has, or fail at once.
    // A dispatch that throws (bad options) fails the request as it would have synchronously.
    void answer
      .then((active) => {
        if (active !== undefined) failBeforeDispatch(handler, active);
        else dispatch(opts, handlerOf(opts, handler, origin, onThrottle, onSpent));
      })
      .catch((error: unknown) =>
        failBeforeDispatch(handler, error instanceof Error ? error : new Error(String(error))),
      );
    return true;
  };
}

function originHost(opts: DispatchOptions): string | undefined {
  return urlHost(opts.origin);
}
