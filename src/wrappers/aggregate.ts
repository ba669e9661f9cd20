// Tools that compose other tools. A throttled sub-result is the aggregate's answer, verbatim:
// never flattened into prose, never rewritten by the aggregate's own decoration. Verbatim only
// when the library built it: one that merely looks like it (an upstream's JSON a sub-tool relays)
// is rebuilt from its fields, clamped and cleaned.

import { parseRateLimitedResult } from "../contract/result.js";
import { rebuiltIfRelayed } from "../errors/relayed-result.js";
import { isUpstreamRateLimitedError } from "../errors/upstream-rate-limited-error.js";
import { optionalFunction, optionsObject, timerMs } from "../internal/options.js";
import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import { FanOutAbortedError, FanOutRun, throttleAnswer } from "./fan-out-run.js";

export { FanOutAbortedError } from "./fan-out-run.js";

/** A tool result as the SDKs shape it; only `isError` is read here. */
export interface ToolResultLike {
  /** `true` for an error result (a throttle among them). */
  isError?: boolean | undefined;
  [key: string]: unknown;
}

/** Options of `aggregateTool`: the sub-tools, how to pick one, and what to add to a success. */
export interface AggregateToolOptions<
  Args,
  Extra,
  Name extends string,
  Result extends ToolResultLike,
> {
  /**
   * The sub-tools by name: tool callbacks that accept the aggregate's arguments (they may ask
   * for fewer fields). The argument types come from `registerTool`'s input schema, or from the
   * parameters of `select`.
   */
  tools: Record<Name, (args: NoInfer<Args>, extra: NoInfer<Extra>) => Result | Promise<Result>>;
  /** Picks the sub-tool for a call. */
  select: (args: Args, extra: Extra) => Name;
  /**
   * Runs on successful sub-results only (e.g. to attach operation metadata); an error result,
   * a throttle above all, passes through untouched.
   */
  decorate?: (result: Result, context: { tool: Name; args: Args }) => Result | Promise<Result>;
}

/**
 * Route-to-one: a tool callback that picks one sub-tool and returns its result. A throttled
 * (or any error) sub-result comes back exactly as the sub-tool returned it, when this library
 * built it; a `rate_limited` result it did not build (an upstream's JSON a sub-tool relays) is
 * rebuilt from its fields: the delay clamped to 24 hours, the limit name and the message cleaned
 * as an upstream's. A sub-tool that throws an `UpstreamRateLimitedError` (one not wrapped by
 * `withUpstreamThrottle`) answers with its result, as a part of `fanOutTool` does. Any other
 * throw is rethrown unchanged.
 *
 * @example
 * ```ts
 * import { aggregateTool } from "mcp-upstream-throttle";
 *
 * type Args = { query: string; mode: "keyword" | "semantic" };
 * const text = (text: string) => ({ content: [{ type: "text" as const, text }] });
 *
 * // The sub-tools are usually withUpstreamThrottle(...) callbacks.
 * const searchService = aggregateTool({
 *   tools: {
 *     keyword: async ({ query }: Args) => text(`keyword hits for ${query}`),
 *     semantic: async ({ query }: Args) => text(`semantic hits for ${query}`),
 *   },
 *   select: ({ mode }: Args) => mode,
 *   decorate: (result, { tool }) => ({ ...result, _meta: { operation: tool } }),
 * });
 * ```
 */
export function aggregateTool<Args, Extra, Name extends string, Result extends ToolResultLike>(
  options: AggregateToolOptions<Args, Extra, Name, Result>,
): (args: Args, extra: Extra) => Promise<Result> {
  const { tools, select, decorate } = options;
  if (typeof tools !== "object" || tools === null) {
    throw new TypeError("`tools` must be an object of callbacks");
  }
  if (typeof select !== "function") throw new TypeError("`select` must be a function");
  if (decorate !== undefined && typeof decorate !== "function") {
    throw new TypeError("`decorate` must be a function");
  }
  return async (args, extra) => {
    const name = select(args, extra);
    const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (typeof tool !== "function") {
      throw new Error(`\`select\` chose "${String(name)}", which is not in \`tools\``);
    }
    let result: Result;
    try {
      result = await tool(args, extra);
    } catch (error) {
      if (isUpstreamRateLimitedError(error)) return error.toToolResult() as unknown as Result;
      throw error;
    }
    if (result.isError === true) return rebuiltIfRelayed(result, extra) ?? result;
    if (decorate === undefined) return result;
    return decorate(result, { tool: name, args });
  };
}

/** The arguments of a fan-out tool: the tool callback's own. */
// biome-ignore lint/suspicious/noExplicitAny: a fan-out's arguments are the tool's own
export type FanOutArgs = any[];

/** One part of a fan-out: a sub-call given the shared signal, answering with a tool result. */
export type FanOutPart<Result extends ToolResultLike> = (signal: AbortSignal) => Promise<Result>;

/** Options of `fanOutTool`: the parts of a call, how to merge them, and how long to wait. */
export interface FanOutToolOptions<Args extends FanOutArgs, Result extends ToolResultLike, Merged> {
  /** The sub-calls of one tool call, by name. */
  parts: (...args: Args) => Record<string, FanOutPart<Result>>;
  /** Merges the successful sub-results into the aggregate's result. */
  merge: (results: Record<string, Result>, ...args: Args) => Merged | Promise<Merged>;
  /**
   * The tool call's own abort signal, which aborts every part. @default the last argument's
   * `signal` (SDK 1.x `extra.signal`) or `mcpReq.signal` (SDK 2.x `ctx.mcpReq.signal`)
   */
  signal?: ((...args: Args) => AbortSignal | undefined) | undefined;
  /**
   * After the first throttle, how long parts still running may take to report theirs before
   * they are aborted, in milliseconds. @default 100
   */
  graceMs?: number | undefined;
  /**
   * Told of the throttle a fan-out answers with (`source: "fanOutTool"`; the part's own
   * wrapper reported the upstream's throttle itself). @default none
   */
  onEvent?: ThrottleEventHook | undefined;
}

/**
 * Fan-out: runs every part concurrently under one AbortSignal. When a part is throttled, the
 * aggregate answers with the throttled sub-result that asks for the longest wait (its `limit`
 * names that part's limit) and aborts the parts still running; a part that fails otherwise
 * aborts the rest and its failure is the answer; when all succeed, `merge` makes the result.
 * A part may also throw an `UpstreamRateLimitedError` (from `throttledFetch`): it counts as a
 * throttle. A part's `rate_limited` result that this library did not build is rebuilt from its
 * fields first, as `aggregateTool` does.
 *
 * @example
 * ```ts
 * import { fanOutTool, throttledFetch } from "mcp-upstream-throttle";
 *
 * const api = throttledFetch();
 * const part = (url: string) => async (signal: AbortSignal) => {
 *   const response = await api(url, { signal });
 *   return { content: [{ type: "text" as const, text: await response.text() }] };
 * };
 *
 * const searchEverywhere = fanOutTool({
 *   parts: ({ query }: { query: string }) => ({
 *     github: part(`https://api.github.com/search/code?q=${encodeURIComponent(query)}`),
 *     slack: part(`https://slack.com/api/search.messages?query=${encodeURIComponent(query)}`),
 *   }),
 *   merge: (results) => ({ content: Object.values(results).flatMap((result) => result.content) }),
 * });
 * ```
 */
export function fanOutTool<Args extends FanOutArgs, Result extends ToolResultLike, Merged>(
  options: FanOutToolOptions<Args, Result, Merged>,
): (...args: Args) => Promise<Merged | Result> {
  const { parts, merge } = optionsObject("options", options);
  if (typeof parts !== "function") throw new TypeError("`parts` must be a function");
  if (typeof merge !== "function") throw new TypeError("`merge` must be a function");
  const graceMs = timerMs("graceMs", options.graceMs, 100);
  const signalOf =
    optionalFunction<(...args: Args) => AbortSignal | undefined>("signal", options.signal) ??
    defaultSignal;
  const onEvent = eventHook(options.onEvent);
  return async (...args) => {
    const entries = Object.entries(parts(...args));
    const run = new FanOutRun(entries.length, graceMs, signalOf(...args));
    try {
      const throttled: Result[] = [];
      let failure: { error: unknown } | { result: Result } | undefined;
      const successes: Record<string, Result> = {};
      const settled = Promise.all(
        entries.map(async ([name, part], index) => {
          const outcome = await runPart(part, run.signal(index));
          if (outcome === undefined) return;
          if ("result" in outcome)
            outcome.result = rebuiltIfRelayed(outcome.result, args.at(-1)) ?? outcome.result;
          if ("result" in outcome && parseRateLimitedResult(outcome.result) !== undefined) {
            throttled.push(outcome.result);
            run.throttled();
          } else if ("error" in outcome || outcome.result.isError === true) {
            failure ??= outcome;
            run.failed();
          } else {
            successes[name] = outcome.result;
          }
        }),
      );
      await Promise.race([settled, run.deadline]);
      if (throttled.length > 0) return throttleAnswer(throttled, onEvent);
      if (failure !== undefined) {
        if ("result" in failure) return failure.result;
        throw failure.error;
      }
      return await merge(successes, ...args);
    } finally {
      run.end();
    }
  };
}

/**
 * A part's result. A thrown `UpstreamRateLimitedError` becomes its result; a part that the
 * fan-out itself aborted has nothing to add (`undefined`); any other throw is its error.
 */
async function runPart<Result extends ToolResultLike>(
  part: FanOutPart<Result>,
  signal: AbortSignal,
): Promise<{ result: Result } | { error: unknown } | undefined> {
  try {
    return { result: await part(signal) };
  } catch (error) {
    if (isUpstreamRateLimitedError(error))
      return { result: error.toToolResult() as unknown as Result };
    if (signal.aborted && signal.reason instanceof FanOutAbortedError) return undefined;
    return { error };
  }
}

function defaultSignal(...args: unknown[]): AbortSignal | undefined {
  const context = args.at(-1) as { signal?: unknown; mcpReq?: { signal?: unknown } } | undefined;
  const signal = context?.signal ?? context?.mcpReq?.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}
