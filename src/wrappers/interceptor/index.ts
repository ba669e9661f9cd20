// throttleInterceptor: the detection of throttledFetch for undici 7's dispatcher `compose` API,
// so `undici.request`, `undici.stream` and `fetch` with a composed dispatcher get the same
// UpstreamRateLimitedError. undici is not imported: an interceptor is a function of `dispatch`,
// and the handler speaks undici 7's handler protocol structurally.

import type { CooldownOption } from "../../cooldown/cooldown.js";
import { isThenable } from "../../cooldown/hooks.js";
import type { UpstreamRateLimitedError } from "../../errors/upstream-rate-limited-error.js";
import { type CallNotes, currentCall } from "../../internal/call-notes.js";
import { optionsObject } from "../../internal/options.js";
import { urlHost } from "../../internal/url-host.js";
import { type Credentials, dispatchCredentials } from "../../untrusted/credentials.js";
import { type Door, GuardedCall } from "../guarded-call.js";
import { type SuccessPathOptions, successPath } from "../success-path.js";
import {
  type Dispatch,
  type DispatchHandler,
  type DispatchOptions,
  failBeforeDispatch,
} from "./dispatch.js";
import { type SpentListener, SuccessHandler } from "./success-handler.js";
import { type DispatchListener, ThrottleHandler } from "./throttle-handler.js";

export type {
  Dispatch,
  DispatchController,
  DispatchHandler,
  DispatchOptions,
  ResponseHeaders,
} from "./dispatch.js";

import { type ThrottleOptions, throttleSettings } from "../settings.js";

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
  const custom = typeof given.cooldown === "object" ? given.cooldown.partition : undefined;
  const door: Door<DispatchOptions, DispatchOptions["origin"], boolean> = {
    source: "throttleInterceptor",
    host: (_opts, origin) => urlHost(origin),
    credentials: (opts) => dispatchCredentials(opts, settings.credentials),
    partition: custom && ((opts) => custom(opts)),
  };
  const guard = new GuardedCall(door, { ...settings, cooldown: given.cooldown });
  const { cooldown } = guard;
  const success = successPath(given, cooldown !== undefined);
  const askedOrigin = originsAsked();
  // Without a cooldown, or a tool call listening (throttleServer), one listener serves every
  // request: nothing is made per request.
  const shared: DispatchListener = {
    throttled: (error, credentials) => guard.seen(error, undefined, credentials),
    answered: (status) => guard.answered(status),
  };
  // The success-path opt-ins put their handler in front; without them there is none.
  const handlerOf = (
    opts: DispatchOptions,
    handler: DispatchHandler,
    origin: DispatchOptions["origin"],
  ): DispatchHandler => {
    // The tool call is taken now: undici runs the handler's callbacks in the socket's async
    // context, where another call may be the current one.
    const call = currentCall();
    const listener =
      cooldown === undefined && call === undefined
        ? shared
        : new Remembering(guard, opts, origin, call);
    const inner = new ThrottleHandler(opts, handler, settings, listener, origin);
    if (success === undefined) return inner;
    // Made only when pre-emption is on: the default success path allocates nothing more.
    const onSpent: SpentListener | undefined = success.preempt
      ? (error, credentials, status) =>
          void guard.spent(error, { credentials, status }, opts, origin).catch(() => {})
      : undefined;
    return new SuccessHandler(opts, inner, success, settings, listener, onSpent, origin);
  };
  return (dispatch) => (opts: DispatchOptions, handler: DispatchHandler) => {
    const origin = askedOrigin(opts, handler);
    const answer = guard.check(opts, origin);
    // None, or a store that answered at once (memory, a Redis view): dispatch now.
    if (answer === undefined) return dispatch(opts, handlerOf(opts, handler, origin));
    return afterCheck(answer, handler, () => dispatch(opts, handlerOf(opts, handler, origin)));
  };
}

/**
 * The origin each downstream handler first asked for. An interceptor that dispatches again with
 * the same handler (undici's redirect interceptor, for each hop; its retry interceptor) keeps
 * the name of the host the caller asked for, not the one a redirect picked.
 */
function originsAsked(): (
  opts: DispatchOptions,
  handler: DispatchHandler,
) => DispatchOptions["origin"] {
  const asked = new WeakMap<DispatchHandler, DispatchOptions["origin"]>();
  return (opts, handler) => {
    if (typeof handler !== "object" || handler === null) return opts.origin;
    if (asked.has(handler)) return asked.get(handler);
    asked.set(handler, opts.origin);
    return opts.origin;
  };
}

/** A request the cooldown had something to say about: failed, or dispatched once it is known. */
function afterCheck(
  answer: UpstreamRateLimitedError | Promise<UpstreamRateLimitedError | undefined>,
  handler: DispatchHandler,
  dispatch: () => boolean,
): boolean {
  if (!isThenable(answer)) {
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
      else dispatch();
    })
    .catch((error: unknown) =>
      failBeforeDispatch(handler, error instanceof Error ? error : new Error(String(error))),
    );
  return true;
}

/**
 * The listener of one request with a cooldown, or one a tool call listens to: one object, its
 * methods shared.
 */
class Remembering implements DispatchListener {
  readonly #guard: GuardedCall<DispatchOptions, DispatchOptions["origin"], boolean>;
  readonly #opts: DispatchOptions;
  readonly #origin: DispatchOptions["origin"];
  readonly #call: CallNotes | undefined;

  constructor(
    guard: GuardedCall<DispatchOptions, DispatchOptions["origin"], boolean>,
    opts: DispatchOptions,
    origin: DispatchOptions["origin"],
    call: CallNotes | undefined,
  ) {
    this.#guard = guard;
    this.#opts = opts;
    this.#origin = origin;
    this.#call = call;
  }

  throttled(error: UpstreamRateLimitedError, credentials: () => Credentials): void {
    this.#guard.throttled(error, this.#opts, this.#origin, credentials, this.#call);
  }

  answered(status: number): void {
    this.#guard.answered(status, this.#call);
  }
}
