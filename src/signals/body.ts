import { isObject } from "../internal/is-object.js";
import { cleanMessage } from "../untrusted/message.js";
import type { SecretMatcher } from "../untrusted/secrets.js";

// A body larger than the throttle path's bounded read is not parsed: a vendor SDK may hold
// megabytes of it, and no delay hint or message needs that much.
const MAX_PARSED_LENGTH = 64 * 1024;

/** A response body as the detector sees it: parsed JSON, raw text, or nothing. */
export type BodyInput = unknown;

/** Parses text that looks like JSON; returns other text as is, and objects untouched. */
export function normalizeBody(body: BodyInput): unknown {
  if (typeof body !== "string" || body.length > MAX_PARSED_LENGTH) return body;
  const text = body.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return body;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return body;
  }
}

/** The `error` member of a JSON-RPC response, or a bare JSON-RPC error object. */
export function jsonRpcError(body: unknown): { code: number; data?: unknown } | undefined {
  const error = isObject(body) && isObject(body.error) ? body.error : body;
  if (isObject(error) && typeof error.code === "number" && Number.isInteger(error.code)) {
    return error as { code: number; data?: unknown };
  }
  return undefined;
}

// A list of errors is read this far for a message, no further.
const MAX_ERRORS = 32;

/**
 * The upstream's own human message, from the shapes real APIs use: `message`, `error.message`,
 * `error.detail` (Brave Search), `error` as a string (Firecrawl, Exa, Slack), `error_description`,
 * `error_message` (Google Maps), `detail` (or its `error`: Tavily), `details` as a string, `title`, the first
 * `errors[].message` (GraphQL, Salesforce's list), or a plain text body; cleaned by
 * `cleanMessage` with the request's `secrets`. HTML pages and JSON that did not parse are not
 * messages.
 */
export function bodyMessage(given: unknown, secrets: SecretMatcher): string | undefined {
  // Salesforce answers with a list of errors: the first speaks for the response.
  const body = Array.isArray(given) ? given[0] : given;
  if (typeof body === "string") {
    if (/^\s*[<{[]/.test(body)) return undefined;
    return cleanMessage(body, secrets);
  }
  if (!isObject(body)) return undefined;
  const error = body.error;
  const candidates = [
    body.message,
    isObject(error) ? error.message : error,
    isObject(error) ? error.detail : undefined,
    body.error_description,
    body.error_message,
    body.detail,
    // FastAPI's HTTPException with a dict (Tavily: `{"detail": {"error": "…"}}`).
    isObject(body.detail) ? (body.detail.error ?? body.detail.message) : undefined,
    body.details,
    body.title,
  ];
  for (const candidate of candidates) {
    const message = messageOf(candidate, secrets);
    if (message !== undefined) return message;
  }
  return errorsMessage(body.errors, secrets);
}

function messageOf(candidate: unknown, secrets: SecretMatcher): string | undefined {
  return typeof candidate === "string" ? cleanMessage(candidate, secrets) : undefined;
}

/** The first message in a list of errors (GraphQL's `errors`), or one given as a string. */
function errorsMessage(errors: unknown, secrets: SecretMatcher): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const end = Math.min(errors.length, MAX_ERRORS);
  for (let index = 0; index < end; index += 1) {
    const item: unknown = errors[index];
    const message = messageOf(isObject(item) ? item.message : item, secrets);
    if (message !== undefined) return message;
  }
  return undefined;
}
