// undici 7's dispatcher protocol, as far as the interceptor speaks it. undici is not imported:
// an interceptor is a function of `dispatch`, and these are the shapes `compose` hands it.

/** The parts of undici's `Dispatcher.DispatchOptions` the interceptor reads. */
export interface DispatchOptions {
  /** The upstream's origin (`https://api.github.com`). */
  origin?: string | URL;
  /** The request's path and query. */
  path: string;
  /** The HTTP method. */
  method?: string;
  /** The request's headers, in any of the forms undici accepts (credentials are read from them). */
  headers?: unknown;
  /** The caller's abort signal, if any. */
  signal?: { aborted: boolean } | null;
  [key: string]: unknown;
}

/** undici 7's `DispatchController`. */
export interface DispatchController {
  /** Aborts the request with `reason`. */
  abort(reason: Error): void;
  /** Stops the flow of response data (backpressure). */
  pause(): void;
  /** Lets response data flow again. */
  resume(): void;
  /** Whether the request was aborted. */
  readonly aborted: boolean;
}

/** Response headers or trailers as undici 7 hands them to a handler, by lower-case name. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** undici 7's `DispatchHandler` (the interface `compose` hands every interceptor). */
export interface DispatchHandler {
  /** The request is about to be sent. */
  onRequestStart?(controller: DispatchController, context: unknown): void;
  /** The upstream upgraded the connection (a `CONNECT` or `Upgrade` request). */
  onRequestUpgrade?(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    socket: unknown,
  ): void;
  /** The response's status line and headers arrived. */
  onResponseStart?(
    controller: DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
    statusMessage?: string,
  ): void;
  /** A chunk of the response body arrived. */
  onResponseData?(controller: DispatchController, chunk: Uint8Array): void;
  /** The response ended, with its trailers. */
  onResponseEnd?(controller: DispatchController, trailers: ResponseHeaders): void;
  /** The request failed (or was aborted, or the interceptor failed it). */
  onResponseError?(controller: DispatchController, error: Error): void;
}

/** undici's `dispatch`; its own option and handler types are wider than what is read here. */
// biome-ignore lint/suspicious/noExplicitAny: lets `compose` pass undici's typed dispatch in
export type Dispatch = (options: any, handler: any) => boolean;

/** Fails a request that never reached the upstream, as undici's handler protocol expects. */
export function failBeforeDispatch(handler: DispatchHandler, error: Error): void {
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

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}
