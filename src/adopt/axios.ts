// axios sends through Node's http module, not fetch, so neither `throttleGlobalFetch` nor the
// global dispatcher sees it: an interceptor on the instance tells the call in progress instead.
// axios is not imported; an instance is read by the shape of its `interceptors`.

import { recognition, recognizeThrottle } from "../errors/recognize.js";
import { noteAnswered, noteThrottle } from "../internal/call-notes.js";
import { mayBeThrottle } from "../signals/detect.js";
import { callScope } from "./call-scope.js";
import type { ThrottleServerOptions } from "./throttle-server.js";

interface AxiosResponseLike {
  status?: unknown;
  headers?: unknown;
  data?: unknown;
  config?: { url?: unknown; baseURL?: unknown };
}

/** An axios instance (or the default `axios`), as far as it is used here. */
export interface AxiosLike {
  interceptors: {
    response: {
      // Loose on purpose: axios' own overloads differ between its versions.
      use: (...args: never[]) => unknown;
    };
  };
}

/**
 * Tells the tool call in progress of every throttle an axios instance meets, whether axios
 * throws it (`AxiosError` with a 429) or hands it back as a response (`validateStatus` that
 * accepts it), for `throttleServer`. What the instance returns and throws is unchanged.
 * Instances made with `axios.create()` before this call have interceptors of their own: adopt
 * each one an SDK or a server uses.
 *
 * @example
 * ```ts
 * import axios from "axios";
 * import { throttleAxios } from "mcp-upstream-throttle";
 *
 * const api = throttleAxios(axios.create({ baseURL: "https://api.notion.com/v1" }), {
 *   limit: "notion",
 * });
 * ```
 */
export function throttleAxios<Instance extends AxiosLike>(
  instance: Instance,
  options?: ThrottleServerOptions,
): Instance {
  const response = (instance as Partial<AxiosLike> | null | undefined)?.interceptors?.response as
    | {
        use?: (
          fulfilled: (r: AxiosResponseLike) => unknown,
          rejected: (e: unknown) => unknown,
        ) => unknown;
      }
    | undefined;
  if (typeof response?.use !== "function") {
    throw new TypeError("`instance` must be an axios instance (or the default `axios` export)");
  }
  const settings = recognition(options);
  callScope();
  response.use(
    (answer: AxiosResponseLike) => {
      const status = typeof answer?.status === "number" ? answer.status : 0;
      if (status > 0 && status < 400) noteAnswered(status);
      else if (mayBeThrottle(status)) {
        // Handed back as a success: recognised as axios' own error for it would be, its request
        // `config` included (the credentials to redact, the host asked for).
        const config = answer?.config;
        const throttle = recognizeThrottle({ response: answer, config }, settings, undefined);
        if (throttle !== undefined) noteThrottle(throttle);
      }
      return answer;
    },
    (error: unknown) => {
      const throttle = recognizeThrottle(error, settings, undefined);
      if (throttle !== undefined) noteThrottle(throttle);
      return Promise.reject(error);
    },
  );
  return instance;
}
