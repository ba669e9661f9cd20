// Recognising a throttle in an error some other library threw. Vendor SDKs are never imported:
// their errors are read by shape (status, headers, body, URL in the places SDKs put them).

import { readProperty as get, isObject } from "../internal/is-object.js";
import {
  bool,
  limitName,
  maxRetryAfterSeconds,
  nonNegative,
  optionsObject,
  relayUpstreamText,
  stringList,
} from "../internal/options.js";
import { detect, type UpstreamText } from "../signals/detect.js";
import { errorCredentials } from "../untrusted/credentials.js";
import { cleanHost } from "../untrusted/limit-name.js";
import { errorRequestText } from "../untrusted/request-text.js";
import { hostOf, readParts } from "./error-parts.js";
import { sdkSignal, sdkThrottleParts } from "./sdk-errors.js";
import {
  errorFromSignal,
  isUpstreamRateLimitedError,
  type UpstreamRateLimitedError,
} from "./upstream-rate-limited-error.js";
import { withoutSecrets } from "./without-secrets.js";

/** Options of `toUpstreamRateLimitedError`. */
export interface ToUpstreamRateLimitedErrorOptions {
  /** The tool author's name for the limit; wins over the upstream's name and host. */
  limit?: string | undefined;
  /** Delay to report when the upstream gave none. @default undefined (the field is omitted) */
  defaultRetryAfterSeconds?: number | undefined;
  /** Longest delay reported. @default 86400 */
  maxRetryAfterSeconds?: number | undefined;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
  /**
   * What of the upstream's own text reaches the result: `"none"`, no limit name and no message.
   * @default "sanitized" (an identifier-only name, a cleaned message with the request's
   * credentials redacted)
   */
  relayUpstreamText?: UpstreamText | undefined;
  /**
   * Credential values to keep out of the result besides those the error carries: the key you
   * gave an SDK whose errors carry none (`openai`, `@anthropic-ai/sdk`; Octokit masks its own).
   * @default []
   */
  credentials?: readonly string[] | undefined;
  /** The clock. @default new Date() */
  now?: Date | undefined;
}

/** Recognition settings, checked once. */
export interface Recognition {
  limit: string | undefined;
  maxRetryAfterSeconds: number;
  defaultRetryAfterSeconds: number | undefined;
  treat503AsThrottle: boolean;
  upstreamText: UpstreamText;
  credentials: readonly string[];
  now: Date | undefined;
}

export function recognition(options: ToUpstreamRateLimitedErrorOptions | undefined): Recognition {
  const given = optionsObject("options", options);
  if (given.now !== undefined && !(given.now instanceof Date)) {
    throw new TypeError("`now` must be a Date");
  }
  return {
    limit: limitName(given.limit),
    maxRetryAfterSeconds: maxRetryAfterSeconds(given.maxRetryAfterSeconds),
    defaultRetryAfterSeconds:
      given.defaultRetryAfterSeconds === undefined
        ? undefined
        : nonNegative("defaultRetryAfterSeconds", given.defaultRetryAfterSeconds),
    treat503AsThrottle: bool("treat503AsThrottle", given.treat503AsThrottle),
    upstreamText: relayUpstreamText(given),
    credentials: stringList("credentials", given.credentials),
    now: given.now,
  };
}

/**
 * Returns an `UpstreamRateLimitedError` for an error that carries an upstream throttle
 * (an `UpstreamRateLimitedError` is returned as is), or `undefined`. Never throws for a
 * strange error value (proxies, throwing getters); bad options throw.
 *
 * @example
 * ```ts
 * import { toUpstreamRateLimitedError } from "mcp-upstream-throttle";
 * import OpenAI from "openai";
 *
 * const apiKey = process.env.OPENAI_API_KEY ?? "";
 * const openai = new OpenAI({ apiKey });
 *
 * async function listModels() {
 *   try {
 *     const models = await openai.models.list();
 *     const text = models.data.map((model) => model.id).join("\n");
 *     return { content: [{ type: "text" as const, text }] };
 *   } catch (error) {
 *     const credentials = [apiKey];
 *     const throttle = toUpstreamRateLimitedError(error, { limit: "openai", credentials });
 *     if (throttle !== undefined) return throttle.toToolResult();
 *     throw error;
 *   }
 * }
 * ```
 */
export function toUpstreamRateLimitedError(
  error: unknown,
  options?: ToUpstreamRateLimitedErrorOptions,
): UpstreamRateLimitedError | undefined {
  return recognizeThrottle(
    error,
    options === undefined ? DEFAULT_RECOGNITION : recognition(options),
    undefined,
  );
}

/** The settings of `toUpstreamRateLimitedError` called without options, checked once. */
const DEFAULT_RECOGNITION: Recognition = Object.freeze(recognition(undefined));

/**
 * `toUpstreamRateLimitedError` with checked settings, and with a body the caller already read
 * (the unread `Response` a ky `HTTPError` carries, read by `withUpstreamThrottle`).
 */
export function recognizeThrottle(
  error: unknown,
  settings: Recognition,
  body: unknown,
): UpstreamRateLimitedError | undefined {
  try {
    return recognizeUnsafe(error, settings, body);
  } catch {
    // Only a hostile value gets here: it carries no throttle we can vouch for.
    return undefined;
  }
}

function recognizeUnsafe(
  error: unknown,
  settings: Recognition,
  body: unknown,
): UpstreamRateLimitedError | undefined {
  if (isUpstreamRateLimitedError(error)) return known(error, settings);
  // Ours, wrapped on the way out: undici's "fetch failed", an SDK's connection error, chains.
  const wrapped = wrappedThrottle(error);
  if (wrapped !== undefined) return known(wrapped, settings);
  if (!isObject(error)) return undefined;
  // SDK errors not shaped like HTTP (Slack, AWS, discord.js, Linear): a throttle by their word.
  const sdk = sdkThrottleParts(error);
  const parts = sdk
    ? { ...sdk, status: 429, host: hostOf(urlOf(get(error, "url"))) }
    : readParts(error, body);
  if (parts === undefined) return undefined;
  const secrets = errorCredentials(error, settings.credentials).matcher();
  const signal = detect(
    { status: parts.status, headers: parts.headers, body: parts.body },
    {
      maxMs: settings.maxRetryAfterSeconds * 1000,
      treat503AsThrottle: settings.treat503AsThrottle,
      upstreamText: settings.upstreamText,
      secrets,
      // Words of the SDK's own request (its path, query, body) are never the upstream's.
      requestText: () => errorRequestText(error),
    },
    settings.now?.getTime(),
  );
  if (signal === undefined) return undefined;
  if (sdk) sdkSignal(signal, sdk, settings.maxRetryAfterSeconds * 1000);
  return errorFromSignal(signal, {
    limit: settings.limit,
    host: cleanHost(parts.host, secrets),
    defaultRetryAfterSeconds: settings.defaultRetryAfterSeconds,
    maxRetryAfterSeconds: settings.maxRetryAfterSeconds,
    cause: error,
  });
}

/** A throttle made elsewhere, with the credentials named here kept out of it. */
function known(
  throttle: UpstreamRateLimitedError,
  settings: Recognition,
): UpstreamRateLimitedError {
  if (settings.credentials.length === 0) return throttle;
  return withoutSecrets(throttle, errorCredentials(undefined, settings.credentials).matcher());
}

/**
 * Ours, thrown inside another library's fetch and wrapped on the way out, once or more: undici's
 * "fetch failed", openai's and Anthropic's `APIConnectionError`, Octokit's `RequestError`, and
 * chains of them (an SDK around undici around a dispatcher). Four links, cycles cut short.
 */
function wrappedThrottle(error: unknown): UpstreamRateLimitedError | undefined {
  let link = error;
  for (let depth = 0; depth < 4 && isObject(link); depth += 1) {
    link = get(link, "cause");
    if (isUpstreamRateLimitedError(link)) return link;
    if (link === error) return undefined;
  }
  return undefined;
}

function urlOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export { hostOf };
