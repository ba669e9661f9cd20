// The success-path opt-ins of throttleInterceptor (`inspectSuccessBody`, `preemptSpentQuota`): a
// handler put in front of the throttle handler only when one is on. It holds back a 2xx JSON
// body the author's gate wants read (at most 64 KiB, within `bodyTimeoutMs`), fails the request
// when the body states a throttle, and otherwise replays it; it tells the cooldown of a spent
// quota. The decisions are success-path.ts's, shared with throttledFetch. Without the opt-ins
// this handler does not exist, and the success path stays one status check.

import type { UpstreamRateLimitedError } from "../../errors/upstream-rate-limited-error.js";

import { urlHost } from "../../internal/url-host.js";
import { mayBeThrottle } from "../../signals/detect.js";
import { type Credentials, dispatchCredentials } from "../../untrusted/credentials.js";
import type { ThrottleSettings } from "../settings.js";
import { bodyThrottle, type SuccessPath, spentQuota, wantsBody } from "../success-path.js";
import type { WireRequest } from "../wire.js";
import {
  type DispatchController,
  type DispatchHandler,
  type DispatchOptions,
  type ResponseHeaders,
  single,
} from "./dispatch.js";
import { heldText } from "./held-body.js";
import { HoldingHandler } from "./holding-handler.js";
import type { DispatchListener } from "./throttle-handler.js";

/** Told of a spent quota a successful response announced (the cooldown, the event). */
export type SpentListener = (
  error: UpstreamRateLimitedError,
  credentials: () => Credentials,
  status: number,
) => void;

export class SuccessHandler extends HoldingHandler {
  readonly #path: SuccessPath;
  readonly #settings: ThrottleSettings;
  readonly #listener: DispatchListener;
  readonly #onSpent: SpentListener | undefined;
  readonly #request: WireRequest;
  #credentials: Credentials | undefined;
  /** A 2xx body is being held back until it can be told whether it states a throttle. */
  #holding = false;

  constructor(
    opts: DispatchOptions,
    next: DispatchHandler,
    path: SuccessPath,
    settings: ThrottleSettings,
    listener: DispatchListener,
    onSpent: SpentListener | undefined,
    origin: DispatchOptions["origin"] = opts.origin,
  ) {
    super(next);
    this.#path = path;
    this.#settings = settings;
    this.#listener = listener;
    this.#onSpent = onSpent;
    this.#request = {
      host: urlHost(origin),
      credentials: () => {
        this.#credentials ??= dispatchCredentials(opts, settings.credentials);
        return this.#credentials;
      },
    };
  }

  onRequestStart(controller: DispatchController, context: unknown): void {
    this.drop();
    this.#holding = false;
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    statusMessage?: string,
  ): void {
    // A status that may be a throttle is the throttle handler's business.
    if (mayBeThrottle(statusCode)) {
      this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
      return;
    }
    const header = (name: string) => single(headers[name.toLowerCase()]);
    if (!wantsBody(this.#path, statusCode, header)) {
      this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
      this.#checkSpent(statusCode, headers);
      return;
    }
    this.#holding = true;
    this.hold(statusCode, headers, statusMessage);
    this.startTimer(this.#settings.bodyTimeoutMs, () => this.#release(controller));
  }

  onResponseData(controller: DispatchController, chunk: Uint8Array): void {
    if (!this.#holding) {
      this.next.onResponseData?.(controller, chunk);
      return;
    }
    // Past the cap it cannot be read whole: hand it over as it is.
    if (this.keep(chunk)) this.#release(controller);
  }

  onResponseEnd(controller: DispatchController, trailers: ResponseHeaders): void {
    if (!this.#holding) {
      this.next.onResponseEnd?.(controller, trailers);
      return;
    }
    this.clearTimer();
    this.#holding = false;
    const bytes = this.held() ?? new Uint8Array(0);
    void Promise.resolve(heldText(bytes, single(this.headers["content-encoding"]), true)).then(
      (text) => this.#decide(controller, text, trailers),
    );
  }

  onResponseError(controller: DispatchController, error: Error): void {
    this.drop();
    this.#holding = false;
    this.next.onResponseError?.(controller, error);
  }

  /** The whole body is in: fail the request on a throttle it states, else replay it. */
  #decide(controller: DispatchController, text: string | undefined, trailers: ResponseHeaders) {
    const { status, headers } = this;
    const throttle = bodyThrottle(status, headers, text, this.#request, this.#settings);
    if (throttle === undefined) {
      this.replay(controller);
      this.next.onResponseEnd?.(controller, trailers);
      this.#checkSpent(status, headers);
      return;
    }
    this.drop();
    this.#listener.throttled(throttle, this.#request.credentials);
    // Failed at once, as undici fails a bare request: the ended response's socket goes back to
    // the pool a macrotask later, so a caller that retries at once may open one more connection,
    // as with a bare request (test/integration/connections.test.ts). Waiting for the socket
    // cost ~6 % of a throttled call, and up to ~15 % with 16 in flight.
    this.next.onResponseError?.(controller, throttle);
  }

  /** Not a throttle this handler can tell: hand over what is held, and pass the rest. */
  #release(controller: DispatchController): void {
    this.clearTimer();
    this.#holding = false;
    this.replay(controller);
    this.#checkSpent(this.status, this.headers);
  }

  #checkSpent(status: number, headers: ResponseHeaders): void {
    const spent = this.#onSpent;
    if (spent === undefined || !this.#path.preempt) return;
    const error = spentQuota(status, headers, this.#request, this.#settings);
    if (error !== undefined) spent(error, this.#request.credentials, status);
  }
}
