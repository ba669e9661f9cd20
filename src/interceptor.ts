// throttleInterceptor: the detection of throttledFetch for undici 7's dispatcher `compose` API,
// so `undici.request`, `undici.stream` and `fetch` with a composed dispatcher get the same
// UpstreamRateLimitedError. undici is not imported: an interceptor is a function of `dispatch`,
// and the handler below speaks undici 7's handler protocol structurally.

import {
  type CooldownOption,
  cooldownFrom,
  cooldownKey,
  credentialPartition,
  partitionFrom,
} from "./cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "./errors.js";
import { concatBytes } from "./internal/bytes.js";
import { type ThrottleOptions, type ThrottleSettings, throttleSettings } from "./options.js";
import { BODY_CAP_BYTES, bodyMayTell, isTextual, usableText } from "./read-body.js";
import { hostOf } from "./recognize.js";
import { dispatchSecrets, undiciHeaders } from "./redact.js";
import { mayBeThrottle, throttleVerdict } from "./signals/detect.js";
import { readHeaders } from "./signals/headers.js";
import { throttleFromWire } from "./wire.js";

/** The parts of undici's `Dispatcher.DispatchOptions` the interceptor reads. */
export interface DispatchOptions {
  origin?: string | URL;
  path: string;
  method?: string;
  headers?: unknown;
  signal?: { aborted: boolean } | null;
  [key: string]: unknown;
}

/** undici 7's `DispatchController`. */
export interface DispatchController {
  abort(reason: Error): void;
  pause(): void;
  resume(): void;
  readonly aborted: boolean;
}

type ResponseHeaders = Record<string, string | string[] | undefined>;

/** undici 7's `DispatchHandler` (the interface `compose` hands every interceptor). */
export interface DispatchHandler {
  onRequestStart?(controller: DispatchController, context: unknown): void;
  onRequestUpgrade?(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    socket: unknown,
  ): void;
  onResponseStart?(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    statusMessage?: string,
  ): void;
  onResponseData?(controller: DispatchController, chunk: Uint8Array): void;
  onResponseEnd?(controller: DispatchController, trailers: ResponseHeaders): void;
  onResponseError?(controller: DispatchController, error: Error): void;
}

/** undici's `dispatch`; its own option and handler types are wider than what is read here. */
// biome-ignore lint/suspicious/noExplicitAny: lets `compose` pass undici's typed dispatch in
export type Dispatch = (options: any, handler: any) => boolean;

/**
 * An undici 7 interceptor: `new Agent().compose(throttleInterceptor({ limit: "github" }))`.
 * A response that is no throttle streams through untouched. A throttle fails the request with
 * `UpstreamRateLimitedError` after reading at most 64 KiB of its body within `bodyTimeoutMs`:
 * a body that ends within the cap leaves the socket to its pool, a longer one closes it.
 * Bad options throw here, at construction.
 */
export function throttleInterceptor(
  options: ThrottleInterceptorOptions = {},
): (dispatch: Dispatch) => Dispatch {
  const settings = throttleSettings(options);
  const cooldown = cooldownFrom(options.cooldown);
  if (cooldown === undefined) {
    return (dispatch) => (opts: DispatchOptions, handler: DispatchHandler) =>
      dispatch(opts, new ThrottleHandler(opts, handler, settings, undefined));
  }
  const partition = partitionFrom(options.cooldown, (opts: DispatchOptions) =>
    credentialPartition(undiciHeaders(opts.headers)),
  );
  return (dispatch) => (opts: DispatchOptions, handler: DispatchHandler) => {
    const key = cooldownKey(settings.limit ?? hostOf(opts.origin) ?? "upstream", partition(opts));
    // The store may answer asynchronously (Redis): dispatch once it has, or fail at once.
    // A dispatch that throws (bad options) fails the request as it would have synchronously.
    void cooldown
      .active(key)
      .then((active) => {
        if (active !== undefined) failBeforeDispatch(handler, active);
        else
          dispatch(
            opts,
            new ThrottleHandler(opts, handler, settings, (error) => cooldown.remember(key, error)),
          );
      })
      .catch((error: unknown) =>
        failBeforeDispatch(handler, error instanceof Error ? error : new Error(String(error))),
      );
    return true;
  };
}

export interface ThrottleInterceptorOptions extends ThrottleOptions {
  /**
   * Remember a throttle and fail later requests for the same limit and caller at once, with
   * the time actually remaining, until the delay has passed. @default false
   */
  cooldown?: CooldownOption<(options: DispatchOptions) => string | undefined>;
}

/** Fails a request that never reached the upstream, as undici's handler protocol expects. */
function failBeforeDispatch(handler: DispatchHandler, error: Error): void {
  let aborted = false;
  const controller: DispatchController = {
    abort: () => {
      aborted = true;
    },
    pause: () => {},
    resume: () => {},
    get aborted() {
      return aborted;
    },
  };
  handler.onRequestStart?.(controller, {});
  handler.onResponseError?.(controller, error);
}

type Mode =
  /** Not a throttle: everything goes straight through. */
  | "pass"
  /** Status and headers say throttle: read the body within bounds, then fail the request. */
  | "capture"
  /** Only the body can tell: hold it back, then fail the request or replay it. */
  | "peek";

class ThrottleHandler implements DispatchHandler {
  readonly #opts: DispatchOptions;
  readonly #next: DispatchHandler;
  readonly #settings: ThrottleSettings;
  #mode: Mode = "pass";
  #status = 0;
  #headers: ResponseHeaders = {};
  #statusMessage: string | undefined;
  #chunks: Uint8Array[] = [];
  #size = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The throttle this handler failed the request with; set before it aborts. */
  #failed: UpstreamRateLimitedError | undefined;
  /** Told of every throttle (the cooldown remembers it). */
  readonly #onThrottle: ((error: UpstreamRateLimitedError) => unknown) | undefined;

  constructor(
    opts: DispatchOptions,
    next: DispatchHandler,
    settings: ThrottleSettings,
    onThrottle: ((error: UpstreamRateLimitedError) => unknown) | undefined,
  ) {
    this.#opts = opts;
    this.#next = next;
    this.#settings = settings;
    this.#onThrottle = onThrottle;
  }

  onRequestStart(controller: DispatchController, context: unknown): void {
    this.#mode = "pass";
    this.#chunks = [];
    this.#size = 0;
    this.#failed = undefined;
    this.#next.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    socket: unknown,
  ): void {
    this.#next.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    statusMessage?: string,
  ): void {
    // The success path: one integer comparison, then straight through.
    if (!mayBeThrottle(statusCode)) {
      this.#next.onResponseStart?.(controller, statusCode, headers, statusMessage);
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
    else if (verdict === "body" && bodyMayTell(statusCode, type, declared)) {
      this.#mode = "peek";
    }
    if (this.#mode === "pass") {
      this.#next.onResponseStart?.(controller, statusCode, headers, statusMessage);
      return;
    }
    this.#status = statusCode;
    this.#headers = headers;
    this.#statusMessage = statusMessage;
    if (this.#mode === "capture" && (declared > BODY_CAP_BYTES || !isTextual(type))) {
      // Nothing in this body is worth reading: decide on the headers and close the socket.
      this.#fail(controller, false);
      return;
    }
    this.#timer = setTimeout(() => this.#settle(controller, false), this.#settings.bodyTimeoutMs);
  }

  onResponseData(controller: DispatchController, chunk: Uint8Array): void {
    if (this.#mode === "pass") {
      this.#next.onResponseData?.(controller, chunk);
      return;
    }
    if (this.#failed !== undefined) return;
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
    if (this.#size > BODY_CAP_BYTES) this.#settle(controller, false);
  }

  onResponseEnd(controller: DispatchController, trailers: ResponseHeaders): void {
    if (this.#mode === "pass") {
      this.#next.onResponseEnd?.(controller, trailers);
      return;
    }
    if (this.#failed !== undefined) return;
    // The whole body arrived: the socket is already back in its pool.
    if (this.#settle(controller, true)) this.#next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: DispatchController, error: Error): void {
    this.#clearTimer();
    if (this.#failed !== undefined) {
      // The abort this handler started: report the throttle, not the abort.
      this.#next.onResponseError?.(controller, this.#failed);
      return;
    }
    if (this.#mode === "capture" && !this.#opts.signal?.aborted) {
      // The body broke off (a reset): the headers already said throttle, and how long to wait.
      const throttle = this.#detect(false);
      if (throttle !== undefined) {
        this.#failed = throttle;
        this.#onThrottle?.(throttle);
        this.#next.onResponseError?.(controller, throttle);
        return;
      }
    }
    this.#next.onResponseError?.(controller, error);
  }

  /**
   * Decides on what has been read. A throttle fails the request (aborting it unless the body
   * `complete`d); anything else is replayed downstream and passes from then on. Returns
   * whether the response goes on downstream.
   */
  #settle(controller: DispatchController, complete: boolean): boolean {
    this.#clearTimer();
    const throttle = this.#detect(complete);
    if (throttle !== undefined) {
      this.#fail(controller, complete, throttle);
      return false;
    }
    this.#mode = "pass";
    this.#next.onResponseStart?.(controller, this.#status, this.#headers, this.#statusMessage);
    for (const chunk of this.#chunks) this.#next.onResponseData?.(controller, chunk);
    this.#chunks = [];
    return true;
  }

  /** Fails the request with `throttle` (in "capture" mode, the headers already decided). */
  #fail(
    controller: DispatchController,
    complete: boolean,
    throttle = this.#detect(complete),
  ): void {
    this.#clearTimer();
    if (throttle === undefined) return;
    this.#failed = throttle;
    this.#onThrottle?.(throttle);
    if (!complete) {
      controller.abort(throttle);
      return;
    }
    // The response ended cleanly, so its socket goes back to the pool, but undici waits a full
    // event-loop cycle first (a setImmediate scheduled after this callback returns). Failing
    // the request after that lets a caller that retries at once reuse the socket (measured:
    // 1 connection for 100 sequential throttles; 2 when failed at once, as with a bare request).
    afterMacrotask(() => afterMacrotask(() => this.#next.onResponseError?.(controller, throttle)));
  }

  #detect(complete: boolean): UpstreamRateLimitedError | undefined {
    const bytes = concatBytes(this.#chunks, Math.min(this.#size, BODY_CAP_BYTES));
    const text = bytes.byteLength === 0 ? undefined : new TextDecoder().decode(bytes);
    return throttleFromWire(
      {
        status: this.#status,
        headers: this.#headers,
        body:
          text === undefined
            ? undefined
            : usableText({ text, complete: complete && this.#size <= BODY_CAP_BYTES }),
      },
      { host: hostOf(this.#opts.origin), secrets: () => dispatchSecrets(this.#opts) },
      this.#settings,
    );
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** `setImmediate` where the runtime has it (Node, Deno, Bun), else a zero timeout. */
function afterMacrotask(run: () => void): void {
  if (typeof setImmediate === "function") setImmediate(run);
  else setTimeout(run, 0);
}
