// What an event is: the plain objects every wrapper reports to `onEvent` and on
// `node:diagnostics_channel`. Numbers and identifiers only: never a credential, a message, a
// path or a query.

import type { DelaySource } from "../signals/delay.js";

/** The wrapper that saw an event. */
export type EventSource =
  | "throttledFetch"
  | "throttleInterceptor"
  | "withUpstreamThrottle"
  | "sdkFetch"
  | "throttleGlobalFetch"
  | "throttleAxios"
  | "throttleServer"
  | "toUpstreamRateLimitedError"
  | "fanOutTool"
  | "honorThrottles"
  | "RedisCooldownStore";

/** An upstream throttled a call (reported once per throttle, by the wrapper that saw it). */
export interface ThrottleObservedEvent {
  /** The event's kind. */
  type: "throttle";
  /** The wrapper that saw the throttle. */
  source: EventSource;
  /** The limit that tripped, as the result names it. */
  limit: string;
  /**
   * The upstream's HTTP status (429 for an upstream MCP server's JSON-RPC rate-limit error);
   * absent when the wrapper saw only a tool result (`fanOutTool`).
   */
  status?: number;
  /** The wait the result reports, in milliseconds; absent when none is known. */
  retryAfterMs?: number;
  /** Where the wait came from (`retry-after`, `ratelimit`, `default`, `none`, …); absent when unknown. */
  delaySource?: DelaySource;
  /** The upstream's host name, when known. */
  host?: string;
}

/** A call was answered from the cooldown: no upstream request was made. */
export interface CooldownHitEvent {
  /** The event's kind. */
  type: "cooldown-hit";
  /** The wrapper whose cooldown answered the call. */
  source: EventSource;
  /** The limit that is cooling down, as the result names it. */
  limit: string;
  /** The status the throttle came with; absent when the wrapper saw only a tool result. */
  status?: number;
  /** Time left in the cooldown, in milliseconds. */
  retryAfterMs: number;
  /** The upstream's host name, when known. */
  host?: string;
}

/** A throttled call is waited out and sent again. */
export interface RetryEvent {
  /** The event's kind. */
  type: "retry";
  /** The wrapper that waits and retries. */
  source: EventSource;
  /** The limit that throttled the call, when it is named. */
  limit?: string;
  /** 1 for the first retry. */
  attempt: number;
  /** How long the wrapper waits before it, in milliseconds (jitter included). */
  waitMs: number;
  /** The HTTP status of the throttled response, when there was one. */
  status?: number;
  /** The upstream's host name, when known. */
  host?: string;
}

/** The cooldown store failed or gave an invalid entry; the call went on without it. */
export interface StoreErrorEvent {
  /** The event's kind. */
  type: "store-error";
  /** The wrapper (or the `RedisCooldownStore`) whose store failed. */
  source: EventSource;
  /** What the store was asked to do. */
  operation: "get" | "set" | "sync" | "entry";
  /** The error's `name` (`Error`, `ReplyError`, `InvalidCooldownEntryError`, …); never its message. */
  errorName: string;
  /** The error's string `code` (`ECONNREFUSED`, …), when it has one. */
  errorCode?: string;
}

/**
 * A *successful* response said its quota is spent, and the cooldown was opened until the reset it
 * gave (`preemptSpentQuota`). No call was refused: it is told apart from `throttle`, so counts of
 * throttles stay counts of refusals.
 */
export interface PreemptEvent {
  /** The event's kind. */
  type: "preempt";
  /** The wrapper that saw the spent quota. */
  source: EventSource;
  /** The limit that is spent, as a later cooldown answer names it. */
  limit: string;
  /** The successful response's HTTP status (200, …). */
  status: number;
  /** Time until the reset the upstream gave, in milliseconds: how long the cooldown answers. */
  retryAfterMs: number;
  /** Where the reset came from (`x-ratelimit-reset`, `ratelimit`, …). */
  delaySource: DelaySource;
  /** The upstream's host name, when known. */
  host?: string;
}

/**
 * Every event a wrapper reports to `onEvent` and on `node:diagnostics_channel`; `type` tells
 * them apart. Plain numbers and identifiers only: never a credential, a message, a path or a query.
 */
export type ThrottleEvent =
  | ThrottleObservedEvent
  | CooldownHitEvent
  | RetryEvent
  | StoreErrorEvent
  | PreemptEvent;
