// The handler the interceptor puts in front of the caller's: it lets a response that is no
// throttle stream straight through, and holds back (within bounds) what must be read to tell.

import { isThenable } from "../../cooldown/hooks.js";
import type { UpstreamRateLimitedError } from "../../errors/upstream-rate-limited-error.js";

import { urlHost } from "../../internal/url-host.js";
import { mayBeThrottle, throttleVerdict } from "../../signals/detect.js";
import { readHeaders } from "../../signals/headers.js";
import { type Credentials, dispatchCredentials } from "../../untrusted/credentials.js";
import { dispatchRequestText } from "../../untrusted/request-text.js";
import { BODY_CAP_BYTES, bodyMayTell, isTextual } from "../read-body.js";
import type { ThrottleSettings } from "../settings.js";
import { throttleFromWire } from "../wire.js";
import {
  type DispatchController,
  type DispatchHandler,
  type DispatchOptions,
  type ResponseHeaders,
  single,
} from "./dispatch.js";
import { heldText } from "./held-body.js";
import { HoldingHandler } from "./holding-handler.js";

/** Told of what a request met: a throttle (with the request's credentials), or an answer. */
export interface DispatchListener {
  throttled(error: UpstreamRateLimitedError, credentials: () => Credentials): void;
  /** The upstream answered with this status, and it was no throttle. */
  answered(status: number): void;
}

type Mode =
  /** Not a throttle: everything goes straight through. */
  | "pass"
  /** Status and headers say throttle: read the body within bounds, then fail the request. */
  | "capture"
  /** Only the body can tell: hold it back, then fail the request or replay it. */
  | "peek";

export class ThrottleHandler extends HoldingHandler {
  readonly #opts: DispatchOptions;
  /** The origin the caller asked for (a redirect's hop has its own in `#opts`). */
  readonly #origin: DispatchOptions["origin"];
  readonly #settings: ThrottleSettings;
  readonly #listener: DispatchListener;
  /** The request's credentials, gathered on the first throttle decision and kept for the rest. */
  #credentials: Credentials | undefined;
  #mode: Mode = "pass";
  /** Set once the response is decided on; later callbacks are ignored. */
  #settled = false;
  /** The throttle this handler failed the request with; set before it aborts. */
  #failed: UpstreamRateLimitedError | undefined;

  constructor(
    opts: DispatchOptions,
    next: DispatchHandler,
    settings: ThrottleSettings,
    listener: DispatchListener,
    origin: DispatchOptions["origin"] = opts.origin,
  ) {
    super(next);
    this.#opts = opts;
    this.#origin = origin;
    this.#settings = settings;
    this.#listener = listener;
  }

  onRequestStart(controller: DispatchController, context: unknown): void {
    this.#mode = "pass";
    this.drop();
    this.#settled = false;
    this.#failed = undefined;
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    statusMessage?: string,
  ): void {
    // The success path: one integer comparison, then straight through.
    if (!mayBeThrottle(statusCode)) {
      this.#listener.answered(statusCode);
      this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
      return;
    }
    const type = single(headers["content-type"]) ?? null;
    const verdict = throttleVerdict(
      statusCode,
      readHeaders(headers),
      this.#settings.treat503AsThrottle,
    );
    const declared = Number(single(headers["content-length"]) ?? Number.NaN);
    if (verdict === "yes") this.#mode = "capture";
    else if (verdict === "body" && bodyMayTell(statusCode, type, declared)) this.#mode = "peek";
    if (this.#mode === "pass") {
      this.#listener.answered(statusCode);
      this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
      return;
    }
    this.hold(statusCode, headers, statusMessage);
    if (this.#mode === "capture" && (declared > BODY_CAP_BYTES || !isTextual(type))) {
      // Nothing in this body is worth reading: decide on the headers and close the socket.
      this.#decide(controller, undefined, false);
      return;
    }
    this.startTimer(this.#settings.bodyTimeoutMs, () => this.#settle(controller, false));
  }

  onResponseData(controller: DispatchController, chunk: Uint8Array): void {
    if (this.#mode === "pass") {
      this.next.onResponseData?.(controller, chunk);
      return;
    }
    if (this.#settled) return;
    if (this.keep(chunk)) this.#settle(controller, false);
  }

  onResponseEnd(controller: DispatchController, trailers: ResponseHeaders): void {
    if (this.#mode === "pass") {
      this.next.onResponseEnd?.(controller, trailers);
      return;
    }
    if (this.#settled) return;
    // The whole body arrived: the socket is already back in its pool.
    this.#settle(controller, true, trailers);
  }

  onResponseError(controller: DispatchController, error: Error): void {
    this.clearTimer();
    if (this.#failed !== undefined) {
      // The abort this handler started: report the throttle, not the abort.
      this.next.onResponseError?.(controller, this.#failed);
      return;
    }
    if (this.#mode === "capture" && !this.#settled && !this.#opts.signal?.aborted) {
      // The body broke off (a reset): the headers already said throttle, and how long to wait.
      this.#settled = true;
      const throttle = this.#detect(undefined);
      if (throttle !== undefined) {
        this.#failed = throttle;
        this.#listener.throttled(throttle, () => this.#requestCredentials());
        this.next.onResponseError?.(controller, throttle);
        return;
      }
    }
    this.next.onResponseError?.(controller, error);
  }

  /**
   * Decides on what has been read: a `complete` body is the whole of it. A compressed body is
   * decoded first (only a complete one can be).
   */
  #settle(controller: DispatchController, complete: boolean, trailers?: ResponseHeaders): void {
    this.clearTimer();
    this.#settled = true;
    const whole = complete && this.size <= BODY_CAP_BYTES;
    const bytes = this.held(BODY_CAP_BYTES);
    const text = heldText(bytes, single(this.headers["content-encoding"]), whole);
    if (isThenable(text))
      void text.then((read) => this.#decide(controller, read, complete, trailers));
    else this.#decide(controller, text, complete, trailers);
  }

  /**
   * A throttle fails the request (aborting it unless the body was read to its end); anything
   * else is replayed downstream and passes from then on.
   */
  #decide(
    controller: DispatchController,
    body: string | undefined,
    complete: boolean,
    trailers?: ResponseHeaders,
  ): void {
    this.#settled = true;
    const throttle = this.#detect(body);
    if (throttle === undefined) {
      this.#mode = "pass";
      this.#listener.answered(this.status);
      this.replay(controller);
      if (complete) this.next.onResponseEnd?.(controller, trailers ?? {});
      return;
    }
    this.#failed = throttle;
    this.drop();
    this.#listener.throttled(throttle, () => this.#requestCredentials());
    if (!complete) {
      controller.abort(throttle);
      return;
    }
    // Failed at once, as undici fails a bare request: the ended response's socket goes back to
    // the pool a macrotask later, so a caller that retries at once may open one more connection,
    // as with a bare request (test/integration/connections.test.ts). Waiting for the socket
    // cost ~6 % of a throttled call, and up to ~15 % with 16 in flight.
    this.next.onResponseError?.(controller, throttle);
  }

  #detect(body: string | undefined): UpstreamRateLimitedError | undefined {
    return throttleFromWire(
      { status: this.status, headers: this.headers, body },
      {
        host: urlHost(this.#origin),
        credentials: () => this.#requestCredentials(),
        text: () =>
          dispatchRequestText({
            origin: this.#origin,
            path: this.#opts.path,
            body: this.#opts.body,
          }),
      },
      this.#settings,
    );
  }

  #requestCredentials(): Credentials {
    this.#credentials ??= dispatchCredentials(this.#opts, this.#settings.credentials);
    return this.#credentials;
  }
}
