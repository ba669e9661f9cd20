import { isObject } from "../internal/is-object.js";

/** A response body as the detector sees it: parsed JSON, raw text, or nothing. */
export type BodyInput = unknown;

/** Parses text that looks like JSON; returns other text as is, and objects untouched. */
export function normalizeBody(body: BodyInput): unknown {
  if (typeof body !== "string") return body;
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

const MAX_MESSAGE_LENGTH = 256;
// C0 and C1 control characters, and the Unicode line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

// Printable ASCII, single spaces inside, none at either end.
const CLEAN_LINE = /^[!-~](?:[!-~]| (?! ))*$/;

/** One line, control characters removed, at most 256 characters; `undefined` if nothing is left. */
export function sanitizeText(text: string, maxLength = MAX_MESSAGE_LENGTH): string | undefined {
  // Most names and many messages are one clean line already: nothing to replace.
  if (text.length <= maxLength && CLEAN_LINE.test(text)) return text;
  const line = text.replace(CONTROL, " ").replace(/\s+/g, " ").trim();
  if (line === "") return undefined;
  return line.length <= maxLength ? line : `${line.slice(0, maxLength - 1).trimEnd()}…`;
}

/**
 * The upstream's own human message, from the shapes real APIs use: `message`, `error.message`,
 * `error` as a string, `error_description`, `detail`, `title`, `errors[0].message`, or a plain
 * text body. HTML pages and broken JSON are not messages.
 */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body === "string") {
    // An HTML page is not a message, nor is JSON that failed to parse.
    if (/^\s*[<{[]/.test(body)) return undefined;
    return sanitizeText(scrubUrls(body));
  }
  if (!isObject(body)) return undefined;
  const error = body.error;
  const firstError = Array.isArray(body.errors) ? body.errors[0] : undefined;
  const candidates = [
    body.message,
    isObject(error) ? error.message : error,
    body.error_description,
    body.detail,
    body.title,
    isObject(firstError) ? firstError.message : firstError,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === "string") {
      const message = sanitizeText(scrubUrls(candidate));
      if (message !== undefined) return message;
    }
  }
  return undefined;
}

// An upstream may echo the URL it was called with; its credentials, query string and fragment
// (where API keys travel) never reach a tool result.
const URL_IN_TEXT = /\b(https?:\/\/)(?:[^\s/?#@]*@)?([^\s?#]*)(?:[?#]\S*)?/gi;

/** Keeps only scheme, host and path of every URL in a text. */
export function scrubUrls(text: string): string {
  return text.replace(URL_IN_TEXT, "$1$2");
}
