// One declaration per tool: the config is given once, and the wrapper reads its outputSchema,
// so the throttle's placement (the tool authors' guide) can never disagree with what the tool declared.

import { isObject, readProperty } from "../internal/is-object.js";
import { optionsObject } from "../internal/options.js";
import {
  type ThrottledResult,
  type WithUpstreamThrottleOptions,
  withUpstreamThrottle,
} from "./handler.js";

/** The part of a Standard Schema (zod 3.24+, zod 4, valibot, arktype…) a type is read from. */
interface StandardTyped<Output = unknown> {
  readonly "~standard": { readonly types?: { readonly output: Output } | undefined };
}

/** The output type of a Standard Schema. */
type OutputOf<S> = S extends StandardTyped<infer Output> ? Output : never;

/** A raw shape's output: a field whose schema accepts `undefined` is optional, as zod makes it. */
type ShapeOutput<S extends Record<string, StandardTyped>> = {
  [K in keyof S as undefined extends OutputOf<S[K]> ? never : K]: OutputOf<S[K]>;
} & { [K in keyof S as undefined extends OutputOf<S[K]> ? K : never]?: OutputOf<S[K]> };

/** The arguments a tool's `inputSchema` (a raw shape or a schema) gives its callback. */
export type ToolArgs<Input> = Input extends StandardTyped
  ? OutputOf<Input>
  : Input extends Record<string, StandardTyped>
    ? { [K in keyof ShapeOutput<Input>]: ShapeOutput<Input>[K] }
    : never;

/**
 * What a `throttledTool` callback gets last: what both MCP SDKs pass (1.x's
 * `RequestHandlerExtra`: `signal`, `authInfo`, `sessionId`; 2.x's `ServerContext`:
 * `mcpReq.signal`, `http.authInfo`), with the request's abort signal as `signal` on both.
 * Annotate the parameter with your SDK's own type to use the rest of it.
 */
export interface ToolCallExtra {
  /**
   * The request's abort signal: 1.x's `extra.signal`, 2.x's `ctx.mcpReq.signal`; a signal that
   * never aborts when the caller passed none. Give it to `fetch` as it is.
   */
  readonly signal: AbortSignal;
  /** 1.x: the id of the session the request came in on, if the transport has sessions. */
  readonly sessionId?: string | undefined;
  /** 1.x: the verified credentials of the request. */
  readonly authInfo?: unknown;
  /** 2.x: the request, with its abort signal. */
  readonly mcpReq?: { readonly signal: AbortSignal };
  /** 2.x: the verified credentials of the request. */
  readonly http?: { readonly authInfo?: unknown } | undefined;
}

/**
 * A signal for a call whose caller gave none: it never aborts. Made on first use, not at import:
 * Workers refuse an AbortController in the global scope.
 */
let never: AbortSignal | undefined;
function neverAborted(): AbortSignal {
  never ??= new AbortController().signal;
  return never;
}

/** The extra with the request's signal as `signal`: 1.x's passes unchanged, 2.x's gains it. */
function withSignal(extra: unknown): unknown {
  if (!isObject(extra)) return { signal: neverAborted() };
  if (extra.signal !== undefined) return extra;
  const request = readProperty(extra, "mcpReq");
  const signal = isObject(request) ? readProperty(request, "signal") : undefined;
  return { ...extra, signal: signal ?? neverAborted() };
}

/** The tool config `registerTool` takes (1.x and 2.x); only `outputSchema` is read here. */
export interface ThrottledToolConfig {
  /** The tool's input: a raw shape (`{ q: z.string() }`) or a schema; it types the callback's arguments. */
  inputSchema?: unknown;
  /** The tool's success schema, read to place the throttle: `structuredContent.error` or `_meta`. */
  outputSchema?: unknown;
  [key: string]: unknown;
}

/**
 * The result a tool callback returns, as far as it is checked here; its content types are
 * literals so that `{ type: "text", text }` keeps its literal type without `as const`.
 */
export interface ToolResultLike {
  content?: readonly {
    type: "text" | "image" | "audio" | "resource" | "resource_link";
    [key: string]: unknown;
  }[];
  [key: string]: unknown;
}

/** `withUpstreamThrottle`'s options; the output schema comes from the config. */
export type ThrottledToolOptions = Omit<WithUpstreamThrottleOptions, "outputSchema">;

/**
 * One declaration per tool: returns `[config, wrappedCallback]` for `registerTool`, with the
 * throttle placed as the config's `outputSchema` allows: `structuredContent.error` without one
 * or with a schema that admits it (`widenOutputShape`), else `_meta` (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/tool-authors.md), which every
 * client and framework passes through. The success schema is never weakened for you: widen it
 * yourself when you want `structuredContent.error`. Works with the 1.x and 2.x `McpServer`.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { throttledFetch, throttledTool } from "mcp-upstream-throttle";
 * import { z } from "zod";
 *
 * const github = throttledFetch({ limit: "github_search" });
 * const server = new McpServer({ name: "repo-search", version: "1.0.0" });
 *
 * server.registerTool(
 *   "search_repositories",
 *   ...throttledTool(
 *     {
 *       description: "Search GitHub repositories",
 *       inputSchema: { query: z.string() },
 *       outputSchema: { total: z.number() },
 *     },
 *     async ({ query }, { signal }) => {
 *       const url = `https://api.github.com/search/repositories?q=${encodeURIComponent(query)}`;
 *       const response = await github(url, { signal });
 *       const { total_count } = (await response.json()) as { total_count: number };
 *       return {
 *         content: [{ type: "text", text: `${total_count} repositories` }],
 *         structuredContent: { total: total_count },
 *       };
 *     },
 *   ),
 * );
 * ```
 */
// Two signatures, not one conditional callback type: the callback's return type must be
// inferred against a plain type for `{ type: "text" }` to keep its literal type. The returned
// callback takes what the SDKs pass: the default extra with every field optional (2.x has no
// `signal` of its own; the callback gets it from `mcpReq`), or an annotated extra's own type.
export function throttledTool<
  Config extends ThrottledToolConfig & { inputSchema: unknown },
  Result extends ToolResultLike,
  Extra = ToolCallExtra,
>(
  config: Config,
  handler: (args: ToolArgs<Config["inputSchema"]>, extra: Extra) => Result | Promise<Result>,
  options?: ThrottledToolOptions,
): [
  Config,
  (
    args: ToolArgs<Config["inputSchema"]>,
    extra: [ToolCallExtra] extends [Extra] ? Partial<ToolCallExtra> : Extra,
  ) => Promise<ThrottledResult<Result>>,
];
export function throttledTool<
  Config extends ThrottledToolConfig & { inputSchema?: undefined },
  Result extends ToolResultLike,
  Extra = ToolCallExtra,
>(
  config: Config,
  handler: (extra: Extra) => Result | Promise<Result>,
  options?: ThrottledToolOptions,
): [
  Config,
  (
    extra: [ToolCallExtra] extends [Extra] ? Partial<ToolCallExtra> : Extra,
  ) => Promise<ThrottledResult<Result>>,
];
export function throttledTool(
  config: ThrottledToolConfig,
  handler: (...args: never[]) => unknown,
  options?: ThrottledToolOptions,
): [ThrottledToolConfig, (...args: never[]) => unknown] {
  if (!isObject(config)) {
    throw new TypeError("`config` must be the tool's config object, as `registerTool` takes it");
  }
  const given = optionsObject("options", options);
  if ("outputSchema" in given) {
    throw new TypeError(
      "`outputSchema` is read from `config` by throttledTool; declare it there, once",
    );
  }
  const call = handler as (...args: unknown[]) => unknown;
  const withExtra =
    config.inputSchema === undefined
      ? (extra: unknown) => call(withSignal(extra))
      : (args: unknown, extra: unknown) => call(args, withSignal(extra));
  return [config, withUpstreamThrottle(withExtra, { ...given, outputSchema: config.outputSchema })];
}
