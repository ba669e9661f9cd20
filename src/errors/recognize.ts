// Recognising a throttle in an error some other library threw. Vendor SDKs are never imported:
// their errors are read by shape (status, headers, body, URL in the places SDKs put them).

import { readProperty as get, isObject } from "../internal/is-object.js";
import {
  bool,
  limitName,
  maxRetryAfterSeconds,
  nonNegative,
  optionsObject,
  stringList,
  upstreamText,
} from "../internal/options.js";
import { detect, RATE_LIMIT_RPC_CODES, type UpstreamText } from "../signals/detect.js";
import type { HeaderInput } from "../signals/headers.js";
import { errorCredentials } from "../untrusted/credentials.js";
import { cleanHost } from "../untrusted/limit-name.js";
import { sdkSignal, sdkThrottleParts } from "./sdk-errors.js";
import {
  errorFromSignal,
  isUpstreamRateLimitedError,
  type UpstreamRateLimitedError,
  withoutSecrets,
} from "./upstream-rate-limited-error.js";

/** Options of `toUpstreamRateLimitedError`. */
export interface RecognizeOptions {
  /** The tool author's name for the limit; wins over the upstream's name and host. */
  limit?: string | undefined;
  /** Delay to report when the upstream gave none. @default undefined (the field is omitted) */
  defaultRetryAfterSeconds?: number | undefined;
  /** Longest delay reported. @default 86400 */
  maxRetryAfterSeconds?: number | undefined;
  /** Count a `503` with `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
  /**
   * `"none"`: take no limit name and no message from the upstream.
   * @default "sanitized" (an identifier-only name, a cleaned message with the request's
   * credentials redacted)
   */
  upstreamText?: UpstreamText | undefined;
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

export function recognition(options: RecognizeOptions | undefined): Recognition {
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
    upstreamText: upstreamText(given.upstreamText),
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
  options?: RecognizeOptions,
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
    ? { ...sdk, status: 429, host: hostOf(stringOf(get(error, "url"))) }
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

interface ErrorParts {
  status: number;
  headers: HeaderInput;
  body: unknown;
  host: string | undefined;
}

/**
 * Status, headers, body and URL from the places HTTP clients put them on their errors:
 * `openai` and `@anthropic-ai/sdk` (`status`, `headers`, `error`), Octokit (`status`,
 * `response.headers`, `response.data`, `request.url`), axios (`response.*`, `config.url`), got
 * (`response.statusCode`, `response.body`), ky (`response`, a fetch Response), undici
 * (`statusCode`, `headers`, `body`), the MCP SDK's HTTP errors (1.x `code` with the body in the
 * message, 2.x `data.status` and `data.text`) and its JSON-RPC errors (`code`, `data`).
 */
function readParts(error: Record<string, unknown>, body: unknown): ErrorParts | undefined {
  // Read in order, each place only until one answers: most errors answer at the first.
  const response = recordOf(get(error, "response"));
  const data = recordOf(get(error, "data"));
  const code = get(error, "code");
  let status =
    integerOf(get(error, "status")) ??
    integerOf(get(error, "statusCode")) ??
    integerOf(response && get(response, "status")) ??
    integerOf(response && get(response, "statusCode")) ??
    integerOf(data && get(data, "status")) ??
    // The 1.x MCP client's StreamableHTTPError keeps the HTTP status in `code`.
    (typeof code === "number" && code >= 400 && code < 600 ? integerOf(code) : undefined);
  const message = get(error, "message");
  let found = bodyOf(body) ?? bodyOf(get(error, "body"));
  if (found === undefined && response !== undefined)
    found = bodyOf(get(response, "data")) ?? bodyOf(get(response, "body"));
  found ??=
    bodyOf(get(error, "error")) ??
    bodyOf(data && get(data, "text")) ??
    bodyOf(embeddedJson(message)) ??
    // stripe: the API's error object, as parsed, under `raw`.
    bodyOf(get(error, "raw"));
  if (status === undefined) {
    // An upstream MCP server's JSON-RPC error (McpError, ProtocolError) has no HTTP status: its
    // rate-limit codes count as a 429.
    if (typeof code !== "number" || !RATE_LIMIT_RPC_CODES.has(code)) return undefined;
    status = 429;
    found = { error: { code, message, data: get(error, "data") } };
  }
  const own = get(error, "headers");
  const headers = isObject(own) ? own : response && get(response, "headers");
  return {
    status,
    headers: (isObject(headers) ? headers : {}) as HeaderInput,
    body: found,
    host: askedHost(error),
  };
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}

function integerOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** The value when it is a body: not absent, and not an unread stream. */
function bodyOf(value: unknown): unknown {
  return value !== undefined &&
    value !== null &&
    typeof (value as { getReader?: unknown }).getReader !== "function"
    ? value
    : undefined;
}

/**
 * The host the request asked for, never where a redirect ended: ky's and Octokit's
 * `request.url`, got's `requestUrl` (its `options.url` follows redirects), axios' `config.url`
 * (against its `baseURL`), the error's own `url`; got's `options.url` and a response's `url`
 * only when the response says no redirect was followed (fetch's `redirected`, got's
 * `redirectUrls`).
 */
function askedHost(error: Record<string, unknown>): string | undefined {
  const response = asRecord(get(error, "response"));
  const request = asRecord(get(error, "request"));
  const options = asRecord(get(error, "options"));
  const config = asRecord(get(error, "config"));
  const redirects = get(response, "redirectUrls");
  const direct =
    get(response, "redirected") === false || (Array.isArray(redirects) && redirects.length === 0);
  for (const url of [
    request.url,
    request.requestUrl,
    get(response, "requestUrl"),
    joinUrl(config.url, config.baseURL),
    get(error, "url"),
    direct ? options.url : undefined,
    direct ? get(response, "url") : undefined,
  ]) {
    const host = hostOf(urlText(url));
    if (host !== undefined) return host;
  }
  return undefined;
}

function urlText(value: unknown): string | undefined {
  if (value instanceof URL) return value.href;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** axios: a relative `url` is resolved against `baseURL`. */
function joinUrl(url: unknown, base: unknown): string | undefined {
  const text = urlText(url);
  const baseText = urlText(base);
  if (text === undefined || baseText === undefined) return text;
  try {
    return new URL(text, baseText).href;
  } catch {
    return text;
  }
}

/** The JSON object an error message carries at its end ("Error POSTing to endpoint: {...}"). */
function embeddedJson(message: unknown): unknown {
  if (typeof message !== "string" || message.length > 64 * 1024) return undefined;
  const start = message.indexOf("{");
  if (start === -1) return undefined;
  try {
    return JSON.parse(message.slice(start)) as unknown;
  } catch {
    return undefined;
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * Only the host name leaves the URL: never its path, query string or credentials; and only a
 * name made of the characters host names use (WHATWG URLs let more through).
 */
export function hostOf(url: string | URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const host = (url instanceof URL ? url : new URL(url)).hostname;
    return /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])$/.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}
