// The options of `honorThrottles`: defaults in one place, checked once, at construction.

import { DEFAULT_MAX_RETRY_AFTER_SECONDS } from "../internal/options.js";
import { eventHook, type ThrottleEventHook } from "../observability/events.js";
import { findSignal, toolName } from "./call-args.js";

/**
 * Options of `honorThrottles` (and of `throttleAwareClient`): how long to wait, how often to
 * retry, and how calls map to limits.
 *
 * @typeParam Args - The arguments of the wrapped `callTool`, which `callKey` and `signal` get.
 */
export interface HonorThrottlesOptions<Args extends readonly unknown[] = readonly unknown[]> {
  /**
   * Longest time one call spends waiting out throttles, in milliseconds, counted across all its
   * retries (jitter included). A delay that does not fit what is left is not waited. At most
   * 2^31−1.
   * @default 10_000
   */
  maxWaitMs?: number;
  /**
   * Most retries of one call after its first attempt, as the core's `retry.maxAttempts`
   * counts them; `0` never retries (the cooldown still answers).
   * @default 2
   */
  maxAttempts?: number;
  /**
   * Longest delay believed, in seconds; a longer one is clamped to it (SEP-3304 RL-8), for the
   * wait and for the cooldown alike.
   * @default 86_400
   */
  maxRetryAfterSeconds?: number;
  /**
   * Remember each throttle per limit, and answer calls that would hit a throttled limit
   * without a round trip, with the time left.
   * @default true
   */
  cooldown?: boolean;
  /**
   * Send a call again after a throttle known only from its sentence (a result's text, a string,
   * an error's message). Off by default: such text may be a tool's content quoting the sentence
   * (a web page, a log), and sending a tool that is not idempotent again does its work twice.
   * A structured throttle (`structuredContent`, `_meta`, `{ error }`) or the server's own refusal
   * is waited out either way. Turn it on when every tool behind this wrapper is safe to repeat
   * (read-only or idempotent).
   * @default false
   */
  retryOnText?: boolean;
  /**
   * Which calls share a fate: a call is mapped, before it is made, to the limits that throttled
   * calls with the same key. Return `undefined` for a call that is never mapped (the outer
   * layer's cooldown still applies to it).
   * @default the first argument's `name` (the tool name of `callTool({ name, arguments })`)
   */
  callKey?: (...args: Args) => string | undefined;
  /**
   * The caller's `AbortSignal`: a wait ends the moment it aborts, with its reason.
   * @default the `signal` (or `abortSignal`) of the first object argument after the first that
   * has one: SDK 1.x `callTool(params, resultSchema, { signal })`, 2.x `callTool(params, { signal })`;
   * or of the first argument's `options` (`@ai-sdk/mcp`'s `callTool({ name, options })`)
   */
  signal?: (...args: Args) => AbortSignal | undefined;
  /**
   * Told of every throttle, wait and cooldown answer (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/observability.md).
   * @default none
   */
  onEvent?: ThrottleEventHook;
}

export interface HonorSettings<Args extends readonly unknown[]> {
  maxWaitMs: number;
  maxAttempts: number;
  maxRetryAfterMs: number;
  cooldown: boolean;
  retryOnText: boolean;
  callKey: (...args: Args) => string | undefined;
  signal: (...args: Args) => AbortSignal | undefined;
  onEvent: ThrottleEventHook | undefined;
}

/** The longest delay `setTimeout` keeps; anything longer fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export function honorSettings<Args extends readonly unknown[]>(
  options: HonorThrottlesOptions<Args> | undefined,
): HonorSettings<Args> {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError("`options` must be an object");
  }
  const given: HonorThrottlesOptions<Args> = { ...options };
  given.maxWaitMs ??= 10_000;
  given.maxAttempts ??= 2;
  given.maxRetryAfterSeconds ??= DEFAULT_MAX_RETRY_AFTER_SECONDS;
  given.cooldown ??= true;
  given.retryOnText ??= false;
  if (typeof given.cooldown !== "boolean") throw new TypeError("`cooldown` must be a boolean");
  if (typeof given.retryOnText !== "boolean") {
    throw new TypeError("`retryOnText` must be a boolean");
  }
  const maxAttempts = numberIn("maxAttempts", given.maxAttempts, Number.MAX_SAFE_INTEGER);
  if (!Number.isInteger(maxAttempts)) {
    throw new RangeError(`\`maxAttempts\` must be a whole number, got ${maxAttempts}`);
  }
  return {
    maxWaitMs: numberIn("maxWaitMs", given.maxWaitMs, MAX_TIMER_MS),
    maxAttempts,
    maxRetryAfterMs:
      numberIn("maxRetryAfterSeconds", given.maxRetryAfterSeconds, Number.MAX_SAFE_INTEGER) * 1000,
    cooldown: given.cooldown,
    retryOnText: given.retryOnText,
    callKey: callback("callKey", given.callKey) ?? ((...args) => toolName(args)),
    signal: callback("signal", given.signal) ?? ((...args) => findSignal(args)),
    onEvent: settledHook(eventHook(given.onEvent)),
  };
}

function numberIn(name: string, value: unknown, max: number): number {
  if (typeof value !== "number") {
    throw new TypeError(`\`${name}\` must be a number, got ${typeof value}`);
  }
  if (!(value >= 0 && value <= max)) {
    throw new RangeError(`\`${name}\` must be between 0 and ${max}, got ${value}`);
  }
  return value;
}

function callback<F>(name: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw new TypeError(`\`${name}\` must be a function`);
  }
  return value;
}

/**
 * An `onEvent` hook whose promise, when it returns one, is settled here: an async hook that
 * rejects is ignored like one that throws, never an unhandled rejection that ends the process.
 */
function settledHook(hook: ThrottleEventHook | undefined): ThrottleEventHook | undefined {
  if (hook === undefined) return undefined;
  return (event) => {
    const returned: unknown = hook(event);
    if (typeof returned === "object" && returned !== null && "then" in returned) {
      const { then } = returned as { then?: unknown };
      if (typeof then === "function") then.call(returned, undefined, () => {});
    }
  };
}
