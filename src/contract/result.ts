import { noteBuilt } from "../internal/call-notes.js";
import { isObject } from "../internal/is-object.js";
import { rateLimitedResultText, rateLimitedText, type UpstreamWords } from "./text.js";

export { leadingSentence, rateLimitedText, type UpstreamWords } from "./text.js";

/** The `_meta` key under which the error object travels when `structuredContent` cannot carry it. */
export const RATE_LIMITED_META_KEY = "mcp-upstream-throttle/error";

/**
 * What a client reads from a throttled tool result (the `rate_limited` error object). Snake case on
 * the wire. `RateLimitedErrorSchema` (zod) describes the same object.
 */
export interface RateLimitedError {
  /** Always `"rate_limited"`: branch on it, not on the English text. */
  type: "rate_limited";
  /** Whole seconds to wait; absent when no delay is known. */
  retry_after_seconds?: number;
  /** The limit that tripped; non-empty. */
  limit: string;
  /** Human text. */
  message: string;
  /** RFC 3339 UTC, only when the upstream sent an absolute time. */
  resets_at?: string;
}

/**
 * The tool result this library produces. Structurally a `CallToolResult` of both the 1.x SDK
 * and the 2.x split packages, declared here so the core needs neither at runtime.
 */
export interface RateLimitedToolResult {
  [key: string]: unknown;
  /**
   * The text block first: the sentence the model reads, which stands on its own (`Rate limited
   * by <limit>. Retry after <n> seconds.`, or `… Wait before retrying.` when no delay is known),
   * then what the upstream said, quoted and labelled as its own. Blocks after it are the tool's
   * own answer, kept when a whole-server switch replaced it.
   */
  content: [RateLimitedTextBlock, ...RateLimitedContentBlock[]];
  /** Holds the error object under `error`, unless `placement: "meta"` put it in `_meta`. */
  structuredContent?: { error: RateLimitedError };
  /** Holds the error object under `RATE_LIMITED_META_KEY` with `placement: "meta"`. */
  _meta?: { [RATE_LIMITED_META_KEY]: RateLimitedError };
  /** Always `true`: the tool failed, the JSON-RPC call did not. */
  isError: true;
}

// A type literal, not an interface: the SDKs' content blocks carry an index signature, which
// only a type literal is assignable to.
/** A text block of a tool result. */
export type RateLimitedTextBlock = {
  type: "text";
  text: string;
};

/**
 * A content block that may follow the text block: MCP's text, image, audio, resource link and
 * embedded resource blocks, as far as this library reads them.
 */
export type RateLimitedContentBlock =
  | RateLimitedTextBlock
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string }
  | {
      type: "resource";
      resource:
        | { uri: string; text: string; mimeType?: string }
        | { uri: string; blob: string; mimeType?: string };
    };

/** What `rateLimitedResult` builds a result from (camel case; the result is snake case). */
export interface RateLimitedInfo {
  /** Name of the limit that tripped; non-empty. */
  limit: string;
  /** Whole seconds to wait; fractions are rounded up. Omit when unknown. */
  retryAfterSeconds?: number | undefined;
  /** Human text for the `message` field. @default DEFAULT_RATE_LIMITED_MESSAGE */
  message?: string | undefined;
  /** Only for an absolute time the upstream sent; never `now + delay`. */
  resetsAt?: Date | undefined;
}

/** Options of `rateLimitedResult` and `UpstreamRateLimitedError.toToolResult`. */
export interface RateLimitedResultOptions {
  /**
   * Where the error object goes: `structuredContent.error`, or `_meta[RATE_LIMITED_META_KEY]`
   * for a tool whose `outputSchema` would reject it.
   * @default "structuredContent"
   */
  placement?: "structuredContent" | "meta";
}

/** The `message` of a result when the upstream gave none (or `relayUpstreamText` is `"none"`). */
export const DEFAULT_RATE_LIMITED_MESSAGE =
  "The upstream service is rate limiting requests. Try again later.";

/**
 * Builds the `rate_limited` tool result. Throws a `TypeError` naming the field on invalid input.
 *
 * @example
 * ```ts
 * import { rateLimitedResult } from "mcp-upstream-throttle";
 *
 * // Inside a tool callback, for a quota your own code tracks:
 * const result = rateLimitedResult({ limit: "search_quota", retryAfterSeconds: 30 });
 * // result.content[0].text === "Rate limited by search_quota. Retry after 30 seconds."
 * // (your `message` goes in the error object only: the text is the sentence alone)
 * // result.structuredContent?.error.retry_after_seconds === 30
 * ```
 */
export function rateLimitedResult(
  info: RateLimitedInfo,
  options: RateLimitedResultOptions = {},
): RateLimitedToolResult {
  return buildRateLimitedResult(info, options, undefined);
}

/**
 * `rateLimitedResult` with what the upstream said (through its doors) after the sentence. The
 * public builder never takes words as the upstream's: an author's `message` is the author's.
 */
export function buildRateLimitedResult(
  info: RateLimitedInfo,
  options: RateLimitedResultOptions,
  said: UpstreamWords | undefined,
): RateLimitedToolResult {
  const error = rateLimitedError(info);
  const text = rateLimitedResultText(rateLimitedText(error.limit, error.retry_after_seconds), said);
  const result: RateLimitedToolResult = { content: [{ type: "text", text }], isError: true };
  const placement = options.placement ?? "structuredContent";
  if (placement === "structuredContent") result.structuredContent = { error };
  else if (placement === "meta") result._meta = { [RATE_LIMITED_META_KEY]: error };
  else throw new TypeError(`\`placement\` must be "structuredContent" or "meta", got ${placement}`);
  if (vouching) {
    builtResults().add(result);
    noteBuilt(result);
  }
  return result;
}

let vouching = true;

/**
 * Runs `build` with the results it makes left unmarked: for one rebuilt from a relayed result's
 * fields, which every wrapper further out reads again by its own rules (its own clamp).
 */
export function unvouched<T>(build: () => T): T {
  const before = vouching;
  vouching = false;
  try {
    return build();
  } finally {
    vouching = before;
  }
}

// A result this process built carries a mark no JSON body can carry: it is in this set. The set
// lives under a registered symbol on `globalThis`, so a second copy of the package in the same
// process (a tool's dependency holding another version) vouches for the first copy's results.
const BUILT = Symbol.for("mcp-upstream-throttle.built-results");

function builtResults(): WeakSet<object> {
  const holder = globalThis as { [BUILT]?: unknown };
  const found = holder[BUILT];
  if (found instanceof WeakSet) return found as WeakSet<object>;
  const made = new WeakSet<object>();
  Object.defineProperty(holder, BUILT, { value: made, configurable: true });
  return made;
}

/**
 * Whether `rateLimitedResult` built this very object in this process (in any copy of the
 * package). A result shaped the same way but read from elsewhere (an upstream's JSON) is not.
 */
export function isBuiltResult(result: unknown): boolean {
  return typeof result === "object" && result !== null && builtResults().has(result);
}

/**
 * The one rule for a valid limit name, everywhere a limit is built or read (the builder, the
 * reader, the schemas, the host side): a string that is not blank once trimmed.
 */
export function isValidLimit(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function rateLimitedError(info: RateLimitedInfo): RateLimitedError {
  if (!isValidLimit(info.limit)) {
    throw new TypeError("`limit` must be a non-empty string");
  }
  const seconds = info.retryAfterSeconds;
  if (seconds !== undefined && (!Number.isFinite(seconds) || seconds < 0)) {
    throw new TypeError(`\`retryAfterSeconds\` must be a finite number >= 0, got ${seconds}`);
  }
  const message = info.message;
  if (message !== undefined && typeof message !== "string") {
    throw new TypeError("`message` must be a string");
  }
  const resetsAt = info.resetsAt;
  if (resetsAt !== undefined && (!(resetsAt instanceof Date) || Number.isNaN(resetsAt.getTime()))) {
    throw new TypeError("`resetsAt` must be a valid Date");
  }
  // Fields in the documented order (`type`, `retry_after_seconds`, `limit`, `message`,
  // `resets_at`), so printed results read the same everywhere.
  return {
    type: "rate_limited",
    ...(seconds === undefined ? {} : { retry_after_seconds: Math.ceil(seconds) }),
    limit: info.limit,
    message: message ?? DEFAULT_RATE_LIMITED_MESSAGE,
    ...(resetsAt === undefined ? {} : { resets_at: resetsAt.toISOString() }),
  };
}

/**
 * Finds the error object of a throttled result in `structuredContent` or `_meta`; `undefined`
 * for any other value. Never throws.
 *
 * @example
 * ```ts
 * import { parseRateLimitedResult, rateLimitedResult } from "mcp-upstream-throttle";
 *
 * const result = rateLimitedResult({ limit: "github", retryAfterSeconds: 5 });
 * const error = parseRateLimitedResult(result);
 * if (error !== undefined) console.log(`${error.limit}: wait ${error.retry_after_seconds} s`);
 * ```
 */
export function parseRateLimitedResult(result: unknown): RateLimitedError | undefined {
  if (!isObject(result) || result.isError !== true) return undefined;
  const structured = result.structuredContent;
  const meta = result._meta;
  return (
    readRateLimitedError(isObject(structured) ? structured.error : undefined) ??
    readRateLimitedError(isObject(meta) ? meta[RATE_LIMITED_META_KEY] : undefined)
  );
}

/**
 * True when `result` is a `rate_limited` tool result (the error object in `structuredContent` or
 * `_meta`). Never throws.
 *
 * @example
 * ```ts
 * import { isRateLimitedResult, rateLimitedResult } from "mcp-upstream-throttle";
 *
 * isRateLimitedResult(rateLimitedResult({ limit: "github" })); // true
 * isRateLimitedResult({ content: [{ type: "text", text: "ok" }] }); // false
 * ```
 */
export function isRateLimitedResult(result: unknown): boolean {
  return parseRateLimitedResult(result) !== undefined;
}

const FIELDS = new Set(["type", "retry_after_seconds", "limit", "message", "resets_at"]);

/**
 * The error object if `value` is one, exactly as `RateLimitedErrorSchema` decides (a test holds
 * the two together), as a fresh object; without zod, so reading a result costs no schema library.
 */
export function readRateLimitedError(value: unknown): RateLimitedError | undefined {
  if (!isObject(value) || Array.isArray(value)) return undefined;
  for (const key of Object.keys(value)) if (!FIELDS.has(key)) return undefined;
  const { type, retry_after_seconds: seconds, limit, message, resets_at: resetsAt } = value;
  if (type !== "rate_limited" || !isValidLimit(limit)) return undefined;
  if (typeof message !== "string") return undefined;
  if (seconds !== undefined && !(Number.isSafeInteger(seconds) && (seconds as number) >= 0))
    return undefined;
  if (resetsAt !== undefined && !(typeof resetsAt === "string" && isIsoDateTime(resetsAt)))
    return undefined;
  return {
    type,
    ...(seconds === undefined ? {} : { retry_after_seconds: seconds as number }),
    limit,
    message,
    ...(resetsAt === undefined ? {} : { resets_at: resetsAt as string }),
  };
}

// RFC 3339 in UTC as `Date.toISOString` writes it, any fractional precision (zod's
// `z.iso.datetime()` default).
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isIsoDateTime(text: string): boolean {
  const match = ISO_DATETIME.exec(text);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as number[];
  if (month === undefined || month < 1 || month > 12) return false;
  const leap = year !== undefined && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return (
    day !== undefined &&
    day >= 1 &&
    day <= days &&
    (hour ?? 24) < 24 &&
    (minute ?? 60) < 60 &&
    (second ?? 60) < 60
  );
}
