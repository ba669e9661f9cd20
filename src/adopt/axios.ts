// axios sends through Node's http module, not fetch, so neither `throttleGlobalFetch` nor the
// global dispatcher sees it: interceptors on an instance make it a door over the one guarded
// call (cooldown, events, the call in progress). axios is never imported statically: an
// instance is read by the shape of its `interceptors`, and `throttleAxios()` finds the process's
// axios with `require` at run time.

import type { CooldownOption } from "../cooldown/cooldown.js";
import { isThenable } from "../cooldown/hooks.js";
import { type Recognition, recognition, recognizeThrottle } from "../errors/recognize.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { type CallNotes, currentCall } from "../internal/call-notes.js";
import { callScope } from "../internal/call-scope.js";
import { urlHost } from "../internal/url-host.js";
import { mayBeThrottle } from "../signals/detect.js";
import { type Credentials, errorCredentials } from "../untrusted/credentials.js";
import { type Door, GuardedCall } from "../wrappers/guarded-call.js";
import type { ThrottleOptions } from "../wrappers/settings.js";
import { findAxios } from "./axios-module.js";

/** An axios request config, as far as it is read here. */
export interface AxiosRequestLike {
  url?: unknown;
  baseURL?: unknown;
  [key: string | symbol]: unknown;
}

/** Names the caller an axios request belongs to, for `cooldown`: it gets the request's config. */
export type AxiosPartition = (config: AxiosRequestLike) => string | undefined;

/** Options of `throttleAxios`. */
export interface ThrottleAxiosOptions
  extends Pick<
    ThrottleOptions,
    | "limit"
    | "defaultRetryAfterSeconds"
    | "maxRetryAfterSeconds"
    | "treat503AsThrottle"
    | "relayUpstreamText"
    | "credentials"
    | "onEvent"
  > {
  /**
   * Remember a throttle and refuse later requests for the same upstream and credential without
   * sending them, until the delay has passed: the request rejects with
   * `UpstreamRateLimitedError` (the time left, nothing else of what the upstream said), which
   * `throttleServer` and `withUpstreamThrottle` turn into the result. Keyed by the credential
   * the request carries, as `throttledFetch`'s `cooldown`. @default false
   */
  cooldown?: CooldownOption<AxiosPartition> | undefined;
}

interface AxiosResponseLike {
  status?: unknown;
  config?: AxiosRequestLike;
}

interface InterceptorManager {
  use: (fulfilled: (value: never) => unknown, rejected?: (error: unknown) => unknown) => unknown;
  eject?: (id: never) => void;
}

/** An axios instance (or the default `axios`), as far as it is used here. */
export interface AxiosLike {
  interceptors: {
    // Loose on purpose: axios' own overloads differ between its versions.
    request: { use: (...args: never[]) => unknown };
    response: { use: (...args: never[]) => unknown };
  };
}

/** The call a request was sent from, kept on its config: its answer may arrive during another. */
const SENT_FROM = Symbol("mcp-upstream-throttle.call");

/**
 * Makes axios a door: every throttle an instance meets (an `AxiosError` with a 429, or a 429
 * handed back by a `validateStatus` that accepts it) is told to the tool call that sent the
 * request, for `throttleServer`, and with `cooldown` later requests inside the delay are refused
 * without being sent. What axios returns and throws is otherwise unchanged.
 *
 * - `throttleAxios(instance, options?)`: that instance, and the instances later made from it
 *   with its `create`; returns the instance.
 * - `throttleAxios(undefined, options?)`: the process's axios, found with `require` from the
 *   working directory (both its ES module and its CommonJS build): its default export, and every
 *   instance made with `axios.create()` from now on; returns the function that undoes it. An
 *   instance made before, or an SDK's own copy of axios, is passed by itself.
 *
 * @example
 * ```ts
 * import axios from "axios";
 * import { throttleAxios } from "mcp-upstream-throttle";
 *
 * // Every instance made from now on, the ones SDKs make inside included:
 * throttleAxios(undefined, { cooldown: true });
 * const notion = axios.create({ baseURL: "https://api.notion.com/v1" });
 * ```
 */
export function throttleAxios<Instance extends AxiosLike>(
  instance: Instance,
  options?: ThrottleAxiosOptions,
): Instance;
export function throttleAxios(instance?: undefined, options?: ThrottleAxiosOptions): () => void;
export function throttleAxios(
  instance?: unknown,
  options?: ThrottleAxiosOptions,
): AxiosLike | (() => void) {
  if (instance !== undefined && !isAxios(instance)) {
    throw new TypeError(
      "`instance` must be an axios instance (or the default `axios` export), or `undefined` for the process's axios",
    );
  }
  const door = axiosDoor(options);
  callScope();
  if (instance !== undefined) {
    door.adopt(instance);
    return instance;
  }
  const found = findAxios();
  if (found.length === 0) {
    throw new TypeError(
      `\`throttleAxios()\` found no axios from ${processCwd()}: pass the axios your code or SDK uses, \`throttleAxios(axios)\``,
    );
  }
  const undo = found.filter(isAxios).map((axios) => door.adopt(axios));
  return () => {
    for (const step of undo) step();
  };
}

function isAxios(value: unknown): value is AxiosLike {
  try {
    const interceptors = (value as Partial<AxiosLike> | null | undefined)?.interceptors;
    return (
      typeof interceptors?.request?.use === "function" &&
      typeof interceptors.response?.use === "function"
    );
  } catch {
    return false;
  }
}

/** The door: the options checked once, and how an instance is adopted. */
function axiosDoor(options: ThrottleAxiosOptions | undefined): {
  adopt: (instance: AxiosLike) => () => void;
} {
  const settings = recognition(options);
  const custom = typeof options?.cooldown === "object" ? options.cooldown.partition : undefined;
  const requestCredentials = (config: AxiosRequestLike | undefined) =>
    errorCredentials({ config }, settings.credentials);
  const door: Door<AxiosRequestLike, undefined, unknown> = {
    source: "throttleAxios",
    host: (config) => configHost(config),
    credentials: requestCredentials,
    partition: custom && ((config) => custom(config)),
  };
  const guard = new GuardedCall(door, {
    limit: settings.limit,
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    onEvent: options?.onEvent,
    cooldown: options?.cooldown,
  });
  const adopted = new WeakSet<object>();
  const adopt = (instance: AxiosLike): (() => void) => {
    if (adopted.has(instance)) return () => {};
    adopted.add(instance);
    const request = instance.interceptors.request as unknown as InterceptorManager;
    const response = instance.interceptors.response as unknown as InterceptorManager;
    const sent = request.use((config: AxiosRequestLike) => sending(guard, config));
    const answered = response.use(
      (answer: AxiosResponseLike) => {
        heard(guard, settings, requestCredentials, answer, answer?.config);
        return answer;
      },
      (error: unknown) => {
        heard(guard, settings, requestCredentials, error, readConfig(error));
        return Promise.reject(error);
      },
    );
    // Instances made from this one (axios.create, or an instance's own create) are adopted too.
    const target = instance as unknown as { create?: unknown };
    const create = target.create;
    if (typeof create === "function") {
      target.create = function created(this: unknown, ...args: unknown[]) {
        const made = create.apply(this, args) as unknown;
        if (isAxios(made)) adopt(made);
        return made;
      };
    }
    return () => {
      request.eject?.(sent as never);
      response.eject?.(answered as never);
      if (typeof create === "function") target.create = create;
      adopted.delete(instance);
    };
  };
  return { adopt };
}

/**
 * A request about to be sent: the call it belongs to is kept on its config (its answer may come
 * while another call runs alone), and a remembered throttle refuses it.
 */
function sending(
  guard: GuardedCall<AxiosRequestLike, undefined, unknown>,
  config: AxiosRequestLike,
): AxiosRequestLike | Promise<AxiosRequestLike> {
  if (config === null || typeof config !== "object") return config;
  const call = currentCall();
  if (call !== undefined) config[SENT_FROM] = call;
  const active = guard.check(config, undefined, call);
  if (isThenable(active)) {
    return active.then((found) => {
      if (found !== undefined) throw found;
      return config;
    });
  }
  if (active !== undefined) throw active;
  return config;
}

/** What came back for a request (a response, or the error axios rejected with). */
function heard(
  guard: GuardedCall<AxiosRequestLike, undefined, unknown>,
  settings: Recognition,
  requestCredentials: (config: AxiosRequestLike | undefined) => Credentials,
  answer: unknown,
  config: AxiosRequestLike | undefined,
): void {
  try {
    const call = config?.[SENT_FROM] as CallNotes | undefined;
    const status = statusOf(answer);
    if (status > 0 && status < 400) {
      guard.answered(status, call);
      return;
    }
    // A throttle the request's cooldown answered is told already; only the upstream's is new.
    if (isOwnRefusal(answer)) return;
    const response = readResponse(answer);
    if (!mayBeThrottle(statusOf(response))) return;
    // Handed back as a success, it is read as the AxiosError for it would be.
    const error = response === answer ? { response, config } : answer;
    const throttle = recognizeThrottle(error, settings, undefined);
    if (throttle === undefined) return;
    // Remembered under the partition its request's config gives, as the next request is looked up.
    guard.throttled(throttle, config ?? {}, undefined, () => requestCredentials(config), call);
  } catch {
    // Observation never breaks a request.
  }
}

function isOwnRefusal(value: unknown): value is UpstreamRateLimitedError {
  return (value as { delaySource?: unknown } | null)?.delaySource === "cooldown";
}

function statusOf(value: unknown): number {
  const status = (value as { status?: unknown } | null | undefined)?.status;
  return typeof status === "number" ? status : 0;
}

/** The response of an answer: itself, or the one an `AxiosError` carries (which has a `status` too). */
function readResponse(value: unknown): unknown {
  const response = (value as { response?: unknown } | null | undefined)?.response;
  return typeof response === "object" && response !== null ? response : value;
}

function readConfig(error: unknown): AxiosRequestLike | undefined {
  try {
    const config = (error as { config?: unknown } | null | undefined)?.config;
    return typeof config === "object" && config !== null ? (config as AxiosRequestLike) : undefined;
  } catch {
    return undefined;
  }
}

/** The host a request asks for: its `url` against its `baseURL`. */
function configHost(config: AxiosRequestLike): string | undefined {
  const url = typeof config.url === "string" ? config.url : undefined;
  const base = typeof config.baseURL === "string" ? config.baseURL : undefined;
  try {
    if (url !== undefined && base !== undefined) return urlHost(new URL(url, base));
    return urlHost(url ?? base);
  } catch {
    return undefined;
  }
}

function processCwd(): string {
  try {
    return (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.() ?? "here";
  } catch {
    return "here";
  }
}
