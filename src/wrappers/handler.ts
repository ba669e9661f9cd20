import { type RateLimitedToolResult, unvouched } from "../contract/result.js";
import type { CooldownOption } from "../cooldown/cooldown.js";
import { type Recognition, recognition } from "../errors/recognize.js";
import { relayedThrottleOf } from "../errors/relayed-result.js";
import type { UpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { withCallCooldown } from "../internal/call-scope.js";
import { DEFAULT_BODY_TIMEOUT_MS, optionsObject, timerMs } from "../internal/options.js";
import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import type { UpstreamText } from "../signals/detect.js";
import { mcpRequestCredentials } from "../untrusted/credentials.js";
import { type Door, GuardedCall } from "./guarded-call.js";
import { outputSchemaAdmits } from "./output-schema.js";
import { recognize } from "./thrown-throttle.js";

/** Names the caller a tool call belongs to, for `cooldown`: it gets the callback's arguments. */
export type HandlerPartition = (...args: never[]) => string | undefined;

/** Options of `withUpstreamThrottle`; every one is optional. */
export interface WithUpstreamThrottleOptions {
  /**
   * Name of the limit, for throttles whose error does not name one itself (vendor SDK errors,
   * or a `throttledFetch` without a `limit`). @default the upstream's own name, else its host
   */
  limit?: string | undefined;
  /**
   * The tool's `outputSchema`, as given to `registerTool`. When it would reject
   * `structuredContent: { error }`, the error object goes in `_meta` instead.
   * @default undefined (no output schema: `structuredContent`)
   */
  outputSchema?: unknown;
  /** Delay reported for a vendor error whose upstream gave none. @default undefined */
  defaultRetryAfterSeconds?: number | undefined;
  /** Longest delay reported for a vendor error. @default 86400 */
  maxRetryAfterSeconds?: number | undefined;
  /** Count a vendor error with status `503` and `Retry-After` as a throttle. @default false */
  treat503AsThrottle?: boolean | undefined;
  /**
   * Credential values to keep out of the result besides those a vendor error carries: the API
   * key you gave an SDK whose errors carry none (`openai`, `@anthropic-ai/sdk`). @default []
   */
  credentials?: readonly string[] | undefined;
  /**
   * Longest time spent reading the unread body of a `Response` an error carries (ky's
   * `HTTPError`), in milliseconds. @default 1000
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * What of the upstream's own text reaches the result, whichever wrapper saw the throttle:
   * `"none"`, no limit name and no message. @default "sanitized"
   */
  relayUpstreamText?: UpstreamText | undefined;
  /**
   * Remember a throttle and answer later calls of this tool by the same caller from memory,
   * without running the callback, until the delay has passed. Needs `limit`, the name the
   * throttle is remembered under. The default partition is a keyed hash of the MCP request's
   * credentials (its bearer token, and its credential headers such as `x-api-key`).
   * @default false
   */
  cooldown?: CooldownOption<HandlerPartition> | undefined;
  /**
   * Told of throttles recognised here, cooldown hits and store failures (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/observability.md).
   */
  onEvent?: ThrottleEventHook | undefined;
}

/** Fields every MCP tool result may carry, which a throttled call fills in. */
export type ToolResultFields = {
  /** `true` on a `rate_limited` result, as on every tool error result. */
  isError?: boolean | undefined;
  /** Where the error object goes when the tool's output schema admits it: `{ error }`. */
  structuredContent?: Record<string, unknown> | undefined;
  /** Where the error object goes otherwise, under `"mcp-upstream-throttle/error"`. */
  _meta?: Record<string, unknown> | undefined;
};

/**
 * What a wrapped callback resolves to: the callback's own result (its type, plus the optional
 * result fields a throttle uses, so `result.isError` reads without a cast), or the `rate_limited` result.
 */
export type ThrottledResult<R> =
  | (Awaited<R> extends object ? Awaited<R> & ToolResultFields : Awaited<R>)
  | RateLimitedToolResult;

/**
 * The wrapped callback's own signature: the callback's arguments, a `ThrottledResult`.
 *
 * @typeParam Handler - The tool callback's own type, whose parameters and result it keeps.
 */
export type ThrottledHandler<Handler extends (...args: never[]) => unknown> = (
  ...args: Parameters<Handler>
) => Promise<ThrottledResult<ReturnType<Handler>>>;

/**
 * Wraps a tool callback: a throttle it throws (an `UpstreamRateLimitedError`, or a vendor SDK error
 * carrying one) becomes a `rate_limited` tool result; every other error is rethrown unchanged.
 * A `rate_limited` result the callback returns passes as it is when this library built it; one
 * that only looks like it (an upstream's JSON the callback relays) is rebuilt from its fields by
 * the same rules as any upstream value (clamped, its limit name and message cleaned).
 *
 * The callback's parameters need no annotation where a tool API types them: the SDK's
 * `registerTool` (with or without an input schema) and one-object APIs that type a callback
 * from a sibling field (fastmcp `addTool`'s `execute`, mcp-lite `tool`'s `handler`). Called
 * directly, the wrapper takes the callback's arguments and resolves to a `ThrottledResult`.
 * Outside a tool API, annotate the parameters: unannotated ones are `never`, so a typo cannot
 * compile as `any`.
 *
 * @typeParam Handler - The tool callback's own type, which the wrapper keeps.
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { throttledFetch, withUpstreamThrottle } from "mcp-upstream-throttle";
 * import { z } from "zod";
 *
 * const github = throttledFetch({ limit: "github_search" });
 * const server = new McpServer({ name: "repo-search", version: "1.0.0" });
 *
 * server.registerTool(
 *   "search_repositories",
 *   { inputSchema: { query: z.string() } },
 *   withUpstreamThrottle(async ({ query }, { signal }) => {
 *     const url = `https://api.github.com/search/repositories?q=${encodeURIComponent(query)}`;
 *     const response = await github(url, { signal });
 *     return { content: [{ type: "text", text: await response.text() }] };
 *   }),
 * );
 * ```
 */
// The first signature is the callback's own type (intersected, so direct calls see the
// throttled result first): `registerTool` infers the arguments through it, also for a tool
// without an input schema, which a signature built from `(...args: A) => R` loses. One-object
// APIs give the callback's type through a sibling generic, which that signature turns into
// `never`; the second one infers the arguments from the callback there. `undefined` in the
// first one's constraint is for an optional callback field (Mastra `createTool`'s `execute?`):
// its contextual type `F | undefined` must stay a candidate, or the arguments become `never`.
export function withUpstreamThrottle<Handler extends ((...args: never[]) => unknown) | undefined>(
  handler: NonNullable<Handler>,
  options?: WithUpstreamThrottleOptions,
): ThrottledHandler<NonNullable<Handler>> & Handler;
export function withUpstreamThrottle<Args extends unknown[], Result>(
  handler: (...args: Args) => Result,
  options?: WithUpstreamThrottleOptions,
): (...args: Args) => Promise<ThrottledResult<Result>>;
export function withUpstreamThrottle(
  handler: (...args: never[]) => unknown,
  options?: WithUpstreamThrottleOptions,
): (...args: unknown[]) => Promise<unknown> {
  if (typeof handler !== "function") throw new TypeError("`handler` must be a function");
  const given = optionsObject("options", options);
  const settings = handlerRecognition(given);
  const { limit } = settings;
  const bodyTimeoutMs = timerMs("bodyTimeoutMs", given.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS);
  const onEvent = eventHook(given.onEvent);
  const shape = {
    limit,
    upstreamText: settings.upstreamText,
    outputSchema: outputSchemaOption(given.outputSchema),
  };
  const custom = typeof given.cooldown === "object" ? given.cooldown.partition : undefined;
  const call = handler as unknown as (...args: unknown[]) => unknown;
  const door: Door<unknown[], undefined, unknown> = {
    source: "withUpstreamThrottle",
    // A tool's cooldown is scoped by its `limit`, which `cooldown` requires: never by a host.
    host: noHost,
    credentials: (args) => mcpRequestCredentials(args.at(-1)),
    partition:
      custom && ((args) => (custom as (...args: unknown[]) => string | undefined)(...args)),
    // With a cooldown, the doors the callback calls use it too, keyed to the upstream's credential.
    send: (args) =>
      toolCooldown === undefined
        ? call(...args)
        : withCallCooldown(toolCooldown, () => call(...args)),
    caught: (error) => recognize(error, settings, bodyTimeoutMs),
    answer: (throttle, met) => resultFor(throttle, met, shape),
  };
  const guard = new GuardedCall(door, { ...settings, onEvent, cooldown: given.cooldown });
  const toolCooldown = guard.cooldown;
  if (guard.cooldown !== undefined && limit === undefined) {
    throw new TypeError("`cooldown` needs `limit`: the name a throttle is remembered under");
  }

  // A rate_limited result the library did not build (an upstream's JSON the callback relays)
  // is an upstream value: rebuilt by this wrapper's rules.
  return async (...args: unknown[]): Promise<unknown> => {
    const result = await guard.run(args, undefined);
    const relayed = relayedThrottleOf(result, settings, args.at(-1));
    return relayed === undefined ? result : resultFor(relayed, undefined, shape, unvouched);
  };
}

/** The recognition settings of `withUpstreamThrottle`'s options, checked once. */
function handlerRecognition(given: WithUpstreamThrottleOptions): Recognition {
  return recognition({
    maxRetryAfterSeconds: given.maxRetryAfterSeconds,
    defaultRetryAfterSeconds: given.defaultRetryAfterSeconds,
    treat503AsThrottle: given.treat503AsThrottle,
    relayUpstreamText: given.relayUpstreamText,
    credentials: given.credentials,
    limit: given.limit,
  });
}

type ResultShape = { limit: string | undefined; upstreamText: UpstreamText; outputSchema: unknown };

/** The result for a throttle, in `structuredContent` or `_meta` as the output schema allows. */
async function resultFor(
  throttle: UpstreamRateLimitedError,
  thrown: unknown,
  { limit, upstreamText, outputSchema }: ResultShape,
  // A relayed result is rebuilt unmarked: a wrapper further out reads it again with its clamp.
  build = (make: () => RateLimitedToolResult) => make(),
): Promise<RateLimitedToolResult> {
  try {
    // The author's name for the limit wins over the upstream's name or host, never over a
    // name the author already gave `throttledFetch`.
    const name = throttle.limitSource === "option" ? throttle.limit : limit;
    const shape = { limit: name, relayUpstreamText: upstreamText };
    const result = build(() => throttle.toToolResult(shape));
    const payload = result.structuredContent?.error;
    if (payload === undefined || (await outputSchemaAdmits(outputSchema, payload))) return result;
    return build(() => throttle.toToolResult({ ...shape, placement: "meta" }));
  } catch (error) {
    // A throttle object that cannot even be turned into a result (a hostile copy of the
    // error class): the tool's own error goes on, unchanged.
    throw thrown === undefined ? error : thrown;
  }
}

/**
 * A tool's output schema is an object (a zod shape or schema, a Standard Schema, a JSON Schema);
 * anything else is a mistake that would silently send every throttle to `_meta`.
 */
function outputSchemaOption(value: unknown): unknown {
  if (value === undefined || (typeof value === "object" && value !== null)) return value;
  throw new TypeError(
    `\`outputSchema\` must be the tool's output schema (a zod shape or object schema, a Standard Schema or a JSON Schema object), got ${value === null ? "null" : typeof value}`,
  );
}

function noHost(): undefined {
  return undefined;
}
