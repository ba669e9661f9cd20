// undici 7's dispatcher protocol, as far as the interceptor speaks it. undici is not imported:
// an interceptor is a function of `dispatch`, and these are the shapes `compose` hands it.

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

export type ResponseHeaders = Record<string, string | string[] | undefined>;

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

/** `setImmediate` where the runtime has it (Node, Deno, Bun), else a zero timeout. */
export function afterMacrotask(run: () => void): void {
  if (typeof setImmediate === "function") setImmediate(run);
  else setTimeout(run, 0);
}

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}
