// Status, headers, body and URL of an error some HTTP client threw, from the places each client
// puts them; and the host the request asked for.

import { readProperty as get, isObject } from "../internal/is-object.js";
import { parsedHost as hostOf } from "../internal/url-host.js";
import { RATE_LIMIT_RPC_CODES } from "../signals/detect.js";
import type { HeaderInput } from "../signals/headers.js";

export interface ErrorParts {
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
 * message, 2.x `data.status` and `data.text`) and its JSON-RPC errors (`code`, `data`), errors
 * that keep the body as `data` (OpenAPI proxies such as Notion's MCP server) or `details`
 * (Firecrawl), and SDKs that keep only the API's words in their `message` (Exa, Firecrawl).
 */
export function readParts(error: Record<string, unknown>, body: unknown): ErrorParts | undefined {
  const response = recordOf(get(error, "response"));
  const data = recordOf(get(error, "data"));
  const code = get(error, "code");
  let status = statusOf(error, response, data, code);
  let found = bodyFrom(error, body, response, data);
  if (status === undefined) {
    // An upstream MCP server's JSON-RPC error (McpError, ProtocolError) has no HTTP status: its
    // rate-limit codes count as a 429.
    if (typeof code !== "number" || !RATE_LIMIT_RPC_CODES.has(code)) return undefined;
    status = 429;
    found = { error: { code, message: get(error, "message"), data: get(error, "data") } };
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

function statusOf(
  error: Record<string, unknown>,
  response: Record<string, unknown> | undefined,
  data: Record<string, unknown> | undefined,
  code: unknown,
): number | undefined {
  return (
    integerOf(get(error, "status")) ??
    integerOf(get(error, "statusCode")) ??
    integerOf(response && get(response, "status")) ??
    integerOf(response && get(response, "statusCode")) ??
    integerOf(data && get(data, "status")) ??
    // The 1.x MCP client's StreamableHTTPError keeps the HTTP status in `code`.
    (typeof code === "number" && code >= 400 && code < 600 ? integerOf(code) : undefined)
  );
}

/** SDK errors that keep only the API's words, in their own `message`: no body, no headers. */
const OWN_WORDS: ReadonlySet<unknown> = new Set([
  // exa-js: the API's `error` text, with `statusCode`.
  "ExaError",
  // @mendable/firecrawl-js (v2 `SdkError`): the API's `error` text, `status`, the body's `details`.
  "FirecrawlSdkError",
]);

/** The body, from the first place that holds one: most errors answer at the first. */
function bodyFrom(
  error: Record<string, unknown>,
  given: unknown,
  response: Record<string, unknown> | undefined,
  data: Record<string, unknown> | undefined,
): unknown {
  const message = get(error, "message");
  let found = bodyOf(given) ?? bodyOf(get(error, "body"));
  if (found === undefined && response !== undefined)
    found = bodyOf(get(response, "data")) ?? bodyOf(get(response, "body"));
  found ??=
    bodyOf(get(error, "error")) ??
    bodyOf(data && get(data, "text")) ??
    bodyOf(embeddedJson(message)) ??
    // stripe: the API's error object, as parsed, under `raw`.
    bodyOf(get(error, "raw")) ??
    bodyOf(data) ??
    bodyOf(get(error, "details"));
  if (OWN_WORDS.has(get(error, "name")) && typeof message === "string") {
    return found === undefined ? message : { message, details: found };
  }
  return found;
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

export { hostOf };
