import { z } from "zod";
import { isObject } from "./internal/is-object.js";

/** The `_meta` key under which the error object travels when `structuredContent` cannot carry it. */
export const RATE_LIMITED_META_KEY = "mcp-upstream-throttle/error";

/** What a client reads from a throttled tool result (design §2). Snake case on the wire. */
export const RateLimitedErrorSchema = z
  .object({
    type: z.literal("rate_limited"),
    retry_after_seconds: z.number().int().nonnegative().optional(),
    limit: z.string().min(1),
    message: z.string(),
    resets_at: z.iso.datetime().optional(),
  })
  .strict();

/** `structuredContent` of a throttled result: the error object under `error`. */
export const RateLimitedStructuredContentSchema = z.object({ error: RateLimitedErrorSchema });

export type RateLimitedError = z.infer<typeof RateLimitedErrorSchema>;

/**
 * The tool result this library produces. Structurally a `CallToolResult` of both the 1.x SDK
 * and the 2.x split packages, declared here so the core needs neither at runtime.
 */
export interface RateLimitedToolResult {
  [key: string]: unknown;
  content: [{ type: "text"; text: string }];
  structuredContent?: { error: RateLimitedError };
  _meta?: { [RATE_LIMITED_META_KEY]: RateLimitedError };
  isError: true;
}

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

export interface RateLimitedResultOptions {
  /**
   * Where the error object goes: `structuredContent.error`, or `_meta[RATE_LIMITED_META_KEY]`
   * for a tool whose `outputSchema` would reject it.
   * @default "structuredContent"
   */
  placement?: "structuredContent" | "meta";
}

export const DEFAULT_RATE_LIMITED_MESSAGE =
  "The upstream service is rate limiting requests. Try again later.";

/** The sentence the model reads; it stands on its own (several hosts show only this). */
export function rateLimitedText(limit: string, retryAfterSeconds?: number): string {
  if (retryAfterSeconds === undefined) return `Rate limited by ${limit}. Wait before retrying.`;
  const unit = retryAfterSeconds === 1 ? "second" : "seconds";
  return `Rate limited by ${limit}. Retry after ${retryAfterSeconds} ${unit}.`;
}

/** Builds the design §2 result. Throws a `TypeError` naming the field on invalid input. */
export function rateLimitedResult(
  info: RateLimitedInfo,
  options: RateLimitedResultOptions = {},
): RateLimitedToolResult {
  const error = rateLimitedError(info);
  const text = rateLimitedText(error.limit, error.retry_after_seconds);
  const result: RateLimitedToolResult = { content: [{ type: "text", text }], isError: true };
  const placement = options.placement ?? "structuredContent";
  if (placement === "structuredContent") result.structuredContent = { error };
  else if (placement === "meta") result._meta = { [RATE_LIMITED_META_KEY]: error };
  else throw new TypeError(`\`placement\` must be "structuredContent" or "meta", got ${placement}`);
  return result;
}

function rateLimitedError(info: RateLimitedInfo): RateLimitedError {
  if (typeof info.limit !== "string" || info.limit.trim() === "") {
    throw new TypeError("`limit` must be a non-empty string");
  }
  const seconds = info.retryAfterSeconds;
  if (seconds !== undefined && (!Number.isFinite(seconds) || seconds < 0)) {
    throw new TypeError(`\`retryAfterSeconds\` must be a finite number >= 0, got ${seconds}`);
  }
  const resetsAt = info.resetsAt;
  if (resetsAt !== undefined && (!(resetsAt instanceof Date) || Number.isNaN(resetsAt.getTime()))) {
    throw new TypeError("`resetsAt` must be a valid Date");
  }
  // Fields in the order of design §2, so printed results read the same everywhere.
  return {
    type: "rate_limited",
    ...(seconds === undefined ? {} : { retry_after_seconds: Math.ceil(seconds) }),
    limit: info.limit,
    message: info.message ?? DEFAULT_RATE_LIMITED_MESSAGE,
    ...(resetsAt === undefined ? {} : { resets_at: resetsAt.toISOString() }),
  };
}

/** Finds the error object of a throttled result in `structuredContent` or `_meta`. */
export function parseRateLimitedResult(result: unknown): RateLimitedError | undefined {
  if (!isObject(result) || result.isError !== true) return undefined;
  const candidates = [
    isObject(result.structuredContent) ? result.structuredContent.error : undefined,
    isObject(result._meta) ? result._meta[RATE_LIMITED_META_KEY] : undefined,
  ];
  for (const candidate of candidates) {
    const parsed = RateLimitedErrorSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

export function isRateLimitedResult(result: unknown): boolean {
  return parseRateLimitedResult(result) !== undefined;
}
