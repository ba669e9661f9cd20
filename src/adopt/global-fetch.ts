import { isUpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { noteAnswered } from "../internal/call-notes.js";
import { bool, optionsObject } from "../internal/options.js";
import { mayBeThrottle } from "../signals/detect.js";
import { throttledFetch } from "../wrappers/fetch.js";
import { type ThrottleOptions, throttleSettings } from "../wrappers/settings.js";
import { callScope } from "./call-scope.js";
import { observeGlobalDispatcher } from "./global-dispatcher.js";

/** Options of `throttleGlobalFetch`: the shared detection options, and what fetch returns. */
export interface ThrottleGlobalFetchOptions extends ThrottleOptions {
  /**
   * `true`: a throttle makes `fetch` throw `UpstreamRateLimitedError`, as `throttledFetch` does.
   * `false`: every response comes back as the upstream sent it (a 429 is still a 429 whose body
   * reads), and the tool call in progress is told, for `throttleServer`.
   * @default false
   */
  throwOnThrottle?: boolean | undefined;
}

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
 * const restore = throttleGlobalFetch();
 * const response = await fetch("https://api.example.com/search?q=mcp");
 * console.log(response.status); // a 429 still reads as a 429
 * restore();
 * ```
 */
export function throttleGlobalFetch(options?: ThrottleGlobalFetchOptions): () => void {
  const given = optionsObject("options", options);
  const throwOnThrottle = bool("throwOnThrottle", given.throwOnThrottle);
  const { throwOnThrottle: _, ...detection } = given;
  const settings = throttleSettings(detection);
  // The first install is undone before the fetch to wrap is read: else that fetch is the first
  // install's, which this one's restore would put back.
  if (typeof globalThis.fetch !== "function") {
    throw new TypeError("`throttleGlobalFetch` needs a global `fetch`; this runtime has none");
  }
  installed?.();
  const original = globalThis.fetch;
  callScope();
  // The response handed to the detector, synchronously: the detector calls its fetch before
  // its first await, so no other call can take it in between.
  let handing: Response | undefined;
  const detector = throttledFetch({
    ...detection,
    fetch: async () => handing as Response,
  });
  const patched = async (
    input: Parameters<typeof fetch>[0],
    init?: RequestInit,
  ): Promise<Response> => {
    const response = await original(input, init);
    if (!mayBeThrottle(response.status)) {
      noteAnswered(response);
      return response;
    }
    handing = throwOnThrottle ? response : response.clone();
    const detected = detector(input, init);
    handing = undefined;
    if (throwOnThrottle) return detected;
    // Only a copy was read: the caller reads the upstream's own body, as without this switch.
    return detected.then(
      () => response,
      (error: unknown) => {
        if (isUpstreamRateLimitedError(error)) return response;
        throw error;
      },
    );
  };
  globalThis.fetch = patched as typeof fetch;
  const unobserve = observeGlobalDispatcher(settings, original);
  const restore = () => {
    if (globalThis.fetch === patched) globalThis.fetch = original;
    unobserve();
    if (installed === restore) installed = undefined;
  };
  installed = restore;
  return restore;
}
