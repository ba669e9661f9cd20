import { isUpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
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
  // The detector sends the request itself, so the call that sends it is the one told of its
  // answer. Its fetch is called before its first await: the holder set just before it is
  // this request's, no other call can take it in between.
  let holder: { response?: Response } | undefined;
  const detector = throttledFetch({
    ...detection,
    fetch: async (input, init) => {
      const mine = holder ?? {};
      holder = undefined;
      const response = await original(input, init);
      mine.response = response;
      // Only a copy is read: the caller reads the upstream's own body, as without this switch.
      return throwOnThrottle || !mayBeThrottle(response.status) ? response : response.clone();
    },
  });
  const patched = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const mine: { response?: Response } = {};
    holder = mine;
    let detected: Promise<Response>;
    try {
      detected = detector(input, init);
    } finally {
      holder = undefined;
    }
    if (throwOnThrottle) return detected;
    return detected.then(
      (response) => mine.response ?? response,
      (error: unknown) => {
        if (isUpstreamRateLimitedError(error) && mine.response !== undefined) return mine.response;
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
