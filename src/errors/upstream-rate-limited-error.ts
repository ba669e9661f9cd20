import {
  buildRateLimitedResult,
  type RateLimitedResultOptions,
  type RateLimitedToolResult,
} from "../contract/result.js";
import { type DelaySource, isDelaySource } from "../signals/delay-source.js";
import type { ThrottleSignal, UpstreamText } from "../signals/detect.js";
import type { LimitSource } from "../untrusted/limit-name.js";
import { cleanLimitName } from "../untrusted/limit-name.js";

const BRAND = Symbol.for("mcp-upstream-throttle.UpstreamRateLimitedError");

export type { LimitSource } from "../untrusted/limit-name.js";

/** What an `UpstreamRateLimitedError` is made from; each field becomes the error's own. */
export interface UpstreamRateLimitedErrorInit {
  /** Name of the limit that tripped; non-empty. */
  limit: string;
  /** Where `limit` came from. @default "option" */
  limitSource?: LimitSource;
  /** The upstream's HTTP status (429, or 403 for GitHub's quota, …). */
  status: number;
  /**
   * The wait, in milliseconds; omit when unknown. The error's `retryAfterSeconds` is this
   * rounded up to whole seconds, as the result reports it.
   */
  retryAfterMs?: number | undefined;
  /** An absolute time the upstream sent for the reset; never `now + delay`. */
  resetsAt?: Date | undefined;
  /** Where the delay was read. @default "none" */
  delaySource?: DelaySource;
  /** The upstream's own message, already cleaned; it may reach the model. */
  upstreamMessage?: string | undefined;
  /**
   * The upstream's own name for the limit when `limit` is another (the author's): kept only
   * when it is an identifier; it may reach the model.
   */
  upstreamLimit?: string | undefined;
  /** The upstream's host name (never its path or query), when known. */
  host?: string | undefined;
  /** The error this one stands for (a vendor SDK's), as the standard `cause`. */
  cause?: unknown;
}

/** Options of `UpstreamRateLimitedError#toToolResult`: the result's placement, and its name. */
export interface ToToolResultOptions extends RateLimitedResultOptions {
  /** The name the result gives the limit. @default the error's `limit` */
  limit?: string | undefined;
  /**
   * What of the upstream's own text reaches the result: `"none"`, no limit name and no message.
   * @default "sanitized"
   */
  relayUpstreamText?: UpstreamText | undefined;
}

/**
 * An upstream API throttled a call. `throttledFetch` and `throttleInterceptor` throw it;
 * `withUpstreamThrottle` turns it into a `rate_limited` tool result.
 *
 * @example
 * ```ts
 * import { UpstreamRateLimitedError, withUpstreamThrottle } from "mcp-upstream-throttle";
 *
 * // A quota your own code tracks, reported like an upstream's throttle:
 * const tool = withUpstreamThrottle(async (_args: { query: string }) => {
 *   throw new UpstreamRateLimitedError({ limit: "quota", status: 429, retryAfterMs: 60_000 });
 * });
 * ```
 */
export class UpstreamRateLimitedError extends Error {
  // The fields are declared, not defined (`declare`): a field given no value is absent, as its
  // doc says, instead of an own property holding `undefined` (`"resetsAt" in error` is false).
  /** Always `"UpstreamRateLimitedError"`. */
  override readonly name = "UpstreamRateLimitedError";
  /** Name of the limit that tripped, as the result names it. */
  declare readonly limit: string;
  /** Where `limit` came from. */
  declare readonly limitSource: LimitSource;
  /** The upstream's HTTP status. */
  declare readonly status: number;
  /** The wait, in milliseconds; absent when unknown. */
  declare readonly retryAfterMs?: number;
  /** The wait in whole seconds, as the result reports it; absent when unknown. */
  declare readonly retryAfterSeconds?: number;
  /** The absolute reset time the upstream sent, if it sent one. */
  declare readonly resetsAt?: Date;
  /** Where the delay was read (`"none"` when there is none, `"default"` for the default). */
  declare readonly delaySource: DelaySource;
  /** The upstream's own message, cleaned (credentials redacted), when it gave one. */
  declare readonly upstreamMessage?: string;
  /**
   * The upstream's own name for the limit (GitHub's `x-ratelimit-resource`, …) when the
   * author's `limit` replaced it; absent otherwise.
   */
  declare readonly upstreamLimit?: string;
  /** The upstream's host name, when known: for logs and events. */
  declare readonly host?: string;

  /** Makes the error from its fields; the message names the limit, the status and the wait. */
  constructor(init: UpstreamRateLimitedErrorInit) {
    const { ms, seconds } = initWait(init);
    const wait = seconds === undefined ? "no delay given" : `retry after ${seconds} s`;
    super(
      `Upstream rate limit "${init.limit}" hit (HTTP ${init.status}); ${wait}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.limit = init.limit;
    this.limitSource = init.limitSource ?? "option";
    this.status = init.status;
    // Only the library's own names: a value from elsewhere is no source a log can trust.
    this.delaySource = isDelaySource(init.delaySource) ? init.delaySource : "none";
    if (ms !== undefined) this.retryAfterMs = ms;
    if (seconds !== undefined) this.retryAfterSeconds = seconds;
    if (init.resetsAt !== undefined) this.resetsAt = init.resetsAt;
    if (init.upstreamMessage !== undefined) this.upstreamMessage = init.upstreamMessage;
    // Through the limit-name door again: a name given here by hand may reach the model too.
    const upstreamLimit = cleanLimitName(init.upstreamLimit);
    if (upstreamLimit !== undefined && upstreamLimit !== init.limit)
      this.upstreamLimit = upstreamLimit;
    if (init.host !== undefined) this.host = init.host;
  }

  /**
   * The `rate_limited` tool result for this throttle. `limit` renames it; the text quotes the
   * upstream's own words after the sentence, and the upstream's own name for the limit when
   * another name replaced it. `relayUpstreamText: "none"` keeps the upstream's own limit name
   * and message out of it (its host names the limit instead).
   *
   * @example
   * ```ts
   * import { UpstreamRateLimitedError } from "mcp-upstream-throttle";
   *
   * const error = new UpstreamRateLimitedError({
   *   limit: "search", status: 429, retryAfterMs: 30_000, upstreamMessage: "Slow down",
   * });
   * error.toToolResult().content[0].text;
   * // 'Rate limited by search. Retry after 30 seconds. The upstream said: "Slow down"'
   * error.toToolResult({ relayUpstreamText: "none" }).content[0].text;
   * // "Rate limited by search. Retry after 30 seconds."
   * ```
   */
  toToolResult(options?: ToToolResultOptions): RateLimitedToolResult {
    const quiet = options?.relayUpstreamText === "none";
    const ownName =
      quiet && this.limitSource === "upstream" ? (this.host ?? "upstream") : this.limit;
    const limit = options?.limit ?? ownName;
    return buildRateLimitedResult(
      {
        limit,
        retryAfterSeconds: this.retryAfterSeconds,
        message: quiet ? undefined : this.upstreamMessage,
        resetsAt: this.resetsAt,
      },
      options?.placement ? { placement: options.placement } : {},
      quiet ? undefined : { limit: upstreamName(this, limit), message: this.upstreamMessage },
    );
  }
}

/** The upstream's own name for the limit, when the result names it otherwise. */
function upstreamName(throttle: UpstreamRateLimitedError, shown: string): string | undefined {
  const name = throttle.limitSource === "upstream" ? throttle.limit : throttle.upstreamLimit;
  return name === shown ? undefined : name;
}

/** The wait of an init in both units: milliseconds as given, seconds rounded up. */
function initWait(init: UpstreamRateLimitedErrorInit): { ms?: number; seconds?: number } {
  const ms = init.retryAfterMs;
  return ms === undefined ? {} : { ms, seconds: Math.ceil(ms / 1000) };
}

// The brand lives on the prototype (not defined on each instance, which cost a shape change per
// throttle): another copy of the package still recognises it through the registered symbol.
Object.defineProperty(UpstreamRateLimitedError.prototype, BRAND, { value: true });

/**
 * True for an `UpstreamRateLimitedError` from any copy of this package (a brand, not
 * `instanceof`). Never throws.
 *
 * @example
 * ```ts
 * import { isUpstreamRateLimitedError, throttledFetch } from "mcp-upstream-throttle";
 *
 * const github = throttledFetch({ limit: "github" });
 * try {
 *   await github("https://api.github.com/rate_limit");
 * } catch (error) {
 *   if (isUpstreamRateLimitedError(error)) console.warn(`retry in ${error.retryAfterSeconds} s`);
 *   else throw error;
 * }
 * ```
 */
export function isUpstreamRateLimitedError(value: unknown): value is UpstreamRateLimitedError {
  if (typeof value !== "object" || value === null) return false;
  try {
    if ((value as Record<symbol, unknown>)[BRAND] === true) return true;
    const candidate = value as Partial<UpstreamRateLimitedError>;
    return (
      candidate.name === "UpstreamRateLimitedError" &&
      typeof candidate.limit === "string" &&
      typeof candidate.toToolResult === "function"
    );
  } catch {
    // A revoked proxy, a throwing getter: not ours.
    return false;
  }
}

export interface SignalContext {
  /** The tool author's name for the limit. */
  limit?: string | undefined;
  /** The upstream's host, the last fallback for `limit`. */
  host?: string | undefined;
  /** Used when the upstream gave no usable delay. */
  defaultRetryAfterSeconds?: number | undefined;
  /** The clamp, applied to the default too. */
  maxRetryAfterSeconds: number;
  cause?: unknown;
}

/** Builds the error for a detected throttle: names the limit and fills in the default delay. */
export function errorFromSignal(
  signal: ThrottleSignal,
  context: SignalContext,
): UpstreamRateLimitedError {
  const [limit, limitSource]: [string, LimitSource] =
    context.limit !== undefined
      ? [context.limit, "option"]
      : signal.limitName !== undefined
        ? [signal.limitName, "upstream"]
        : [context.host || "upstream", "host"];
  const init: UpstreamRateLimitedErrorInit = {
    limit,
    limitSource,
    status: signal.status,
    delaySource: signal.delaySource,
    retryAfterMs: signal.retryAfterMs,
    resetsAt: signal.resetsAt,
    upstreamMessage: signal.message,
    // The author's name replaced the upstream's: the model still reads the upstream's.
    upstreamLimit: limitSource === "option" ? signal.limitName : undefined,
    host: context.host,
    cause: context.cause,
  };
  if (signal.retryAfterMs === undefined && context.defaultRetryAfterSeconds !== undefined) {
    const seconds = Math.ceil(
      Math.min(context.defaultRetryAfterSeconds, context.maxRetryAfterSeconds),
    );
    init.retryAfterMs = seconds * 1000;
    init.delaySource = "default";
  }
  return withoutFrames(() => new UpstreamRateLimitedError(init));
}

/**
 * Builds an error without capturing stack frames. A detected throttle is data, not a bug: its
 * frames would be this library's own (the detection, the body read), the capture was a quarter
 * of the cost of a throttle, and on a vendor's error `cause` keeps that error's own stack. Its
 * `stack` still names it and says what happened (its first line, the message).
 */
export function withoutFrames<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  if (typeof limit !== "number") return build();
  // Only where the engine lets the knob be turned (not frozen intrinsics): a refused assignment
  // throws here (strict mode), and the frames are then captured. An assignment, not
  // `Reflect.set`, which costs twenty times as much.
  try {
    Error.stackTraceLimit = 0;
  } catch {
    return build();
  }
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
