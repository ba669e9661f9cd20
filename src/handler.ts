import {
  type CooldownOption,
  cooldownFrom,
  cooldownKey,
  hashCredentials,
  partitionFrom,
} from "./cooldown/cooldown.js";
import type { UpstreamRateLimitedError } from "./errors.js";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  limitName,
  maxRetryAfterSeconds,
  nonNegative,
} from "./options.js";
import { outputSchemaAdmits } from "./output-schema.js";
import { readThrottleBody } from "./read-body.js";
import { type RecognizeOptions, recognizeThrottle } from "./recognize.js";
import type { RateLimitedToolResult } from "./result.js";
import { mayBeThrottle } from "./signals/detect.js";

export interface WithUpstreamThrottleOptions {
  /**
   * Name of the limit, for throttles whose error does not name one itself (vendor SDK errors,
   * or a `throttledFetch` without a `limit`). @default the upstream's own name, else its host
   */
  limit?: string;
  /**
   * The tool's `outputSchema`, as given to `registerTool`. When it would reject
   * `structuredContent: { error }`, the error object goes in `_meta` instead (design §2).
   * @default undefined (no output schema: `structuredContent`)
   */
  outputSchema?: unknown;
  /** Delay reported for a vendor error whose upstream gave none. @default undefined */
  defaultRetryAfterSeconds?: number;
  /** Longest delay reported for a vendor error. @default 86400 */
  maxRetryAfterSeconds?: number;
  /** Count a vendor error with status `503` and `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean;
  /**
   * Remember a throttle and answer later calls of this tool by the same caller from memory,
   * without running the callback, until the delay has passed. Needs `limit`, the name the
   * throttle is remembered under. The default partition is a SHA-256 of the MCP request's
   * credential (`authInfo.token`, or its `Authorization` header). @default false
   */
  cooldown?: CooldownOption<(...args: never[]) => string | undefined>;
}

/**
 * Wraps a tool callback: a throttle it throws (an `UpstreamRateLimitedError`, or a vendor SDK
 * error carrying one) becomes the design §2 result; every other error is rethrown unchanged.
 *
 * The wrapper is typed as the callback itself, so `registerTool` infers the callback's
 * arguments through it (a signature of the form `(...args: A) => Promise<R | Result>` loses
 * them for tools without an input schema). At run time it always returns a promise, and a
 * throttled call resolves to a `RateLimitedToolResult`, which is a valid `CallToolResult`.
 */
// biome-ignore lint/suspicious/noExplicitAny: `any[]` is what lets registerTool's context type the callback
export function withUpstreamThrottle<Handler extends (...args: any[]) => unknown>(
  handler: Handler,
  options: WithUpstreamThrottleOptions = {},
): Handler {
  if (typeof handler !== "function") throw new TypeError("`handler` must be a function");
  const limit = limitName(options.limit);
  const recognize: RecognizeOptions = {
    maxRetryAfterSeconds: maxRetryAfterSeconds(options.maxRetryAfterSeconds),
    treat503AsThrottle: options.treat503AsThrottle ?? false,
  };
  if (options.defaultRetryAfterSeconds !== undefined) {
    recognize.defaultRetryAfterSeconds = nonNegative(
      "defaultRetryAfterSeconds",
      options.defaultRetryAfterSeconds,
    );
  }
  const { outputSchema } = options;
  const cooldown = cooldownFrom(options.cooldown);
  if (cooldown !== undefined && limit === undefined) {
    throw new TypeError("`cooldown` needs `limit`: the name a throttle is remembered under");
  }
  const partition = partitionFrom(
    options.cooldown as CooldownOption<(...args: unknown[]) => string | undefined> | undefined,
    contextPartition,
  );

  /** The result for a throttle, in `structuredContent` or `_meta` as the output schema allows. */
  async function resultFor(throttle: UpstreamRateLimitedError): Promise<RateLimitedToolResult> {
    // The author's name for the limit wins over the upstream's name or host, never over a
    // name the author already gave `throttledFetch`.
    const name = throttle.limitSource === "option" ? throttle.limit : (limit ?? throttle.limit);
    const result = throttle.toToolResult({ limit: name });
    const payload = result.structuredContent?.error;
    if (payload === undefined || (await outputSchemaAdmits(outputSchema, payload))) return result;
    return throttle.toToolResult({ limit: name, placement: "meta" });
  }

  const wrapped = async (...args: Parameters<Handler>): Promise<unknown> => {
    const key =
      cooldown && limit !== undefined ? cooldownKey(limit, partition(...args)) : undefined;
    const active = key === undefined ? undefined : await cooldown?.active(key);
    if (active !== undefined) return resultFor(active);
    try {
      return await handler(...args);
    } catch (error) {
      const throttle = recognizeThrottle(
        error,
        recognize,
        await thrownResponseBody(error, recognize.treat503AsThrottle ?? false),
      );
      if (throttle === undefined) throw error;
      if (key !== undefined) await cooldown?.remember(key, throttle);
      return resultFor(throttle);
    }
  };
  return wrapped as Handler;
}

/**
 * The default partition of a tool call: a SHA-256 of the MCP request's credential, read from
 * the SDK's last callback argument (1.x `extra.authInfo.token` or the HTTP request's
 * `Authorization`; 2.x `ctx.http.authInfo.token`); "" when the request carries none.
 */
function contextPartition(...args: unknown[]): string {
  const context = args.at(-1) as
    | {
        authInfo?: { token?: unknown };
        http?: { authInfo?: { token?: unknown } };
        requestInfo?: { headers?: Record<string, unknown> };
      }
    | undefined;
  const token =
    context?.authInfo?.token ??
    context?.http?.authInfo?.token ??
    context?.requestInfo?.headers?.authorization;
  return hashCredentials(typeof token === "string" ? [`authorization:${token}`] : []);
}

/**
 * The body of an unread fetch `Response` that an error carries (ky's `HTTPError`), read as
 * `throttledFetch` reads one: only on the throttle path, within the same bounds, from a copy
 * when only the body can tell, so an error that is rethrown keeps a readable response.
 */
async function thrownResponseBody(
  error: unknown,
  treat503AsThrottle: boolean,
): Promise<string | undefined> {
  const response = (error as { response?: unknown } | null)?.response;
  if (!isUnreadResponse(response) || !mayBeThrottle(response.status)) return undefined;
  const read = await readThrottleBody(response, {
    treat503AsThrottle,
    timeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  });
  return read?.body;
}

/** A fetch `Response` from any implementation (the global one, undici's), its body unread. */
function isUnreadResponse(value: unknown): value is Response {
  const candidate = value as Partial<Response> | null | undefined;
  return (
    typeof candidate?.status === "number" &&
    candidate.bodyUsed === false &&
    typeof candidate.clone === "function" &&
    typeof candidate.headers?.get === "function"
  );
}
