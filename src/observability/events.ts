// What operators see (the observability guide): every wrapper reports throttles, cooldown hits,
// retries and store failures to its `onEvent` hook and on `node:diagnostics_channel`, as undici
// does. The events' shapes are in event-types.ts; here, how they are built and delivered.

import type { DelaySource } from "../signals/delay.js";
import type {
  EventSource,
  PreemptEvent,
  StoreErrorEvent,
  ThrottleEvent,
  ThrottleObservedEvent,
} from "./event-types.js";

export type {
  CooldownHitEvent,
  EventSource,
  PreemptEvent,
  RetryEvent,
  StoreErrorEvent,
  ThrottleEvent,
  ThrottleObservedEvent,
} from "./event-types.js";

/**
 * The `onEvent` option of every wrapper. A hook that throws, or an async one that rejects,
 * never changes a call's outcome (nor ends the process with an unhandled rejection).
 *
 * @example
 * ```ts
 * import { throttledFetch, type ThrottleEventHook } from "mcp-upstream-throttle";
 *
 * const onEvent: ThrottleEventHook = (event) => {
 *   if (event.type === "throttle") console.warn("throttled", event.limit, event.retryAfterMs);
 * };
 * const fetchGitHub = throttledFetch({ limit: "github", onEvent });
 * ```
 */
export type ThrottleEventHook = (event: ThrottleEvent) => void;

/**
 * The `node:diagnostics_channel` channel of each event type: subscribe to see the events of
 * every wrapper in the process without passing `onEvent` to each.
 *
 * @example
 * ```ts
 * import { subscribe } from "node:diagnostics_channel";
 * import { EVENT_CHANNELS, type ThrottleObservedEvent } from "mcp-upstream-throttle";
 *
 * subscribe(EVENT_CHANNELS.throttle, (message) => {
 *   const event = message as ThrottleObservedEvent;
 *   console.warn(`${event.source}: ${event.limit} throttled`);
 * });
 * ```
 */
export const EVENT_CHANNELS = {
  /** Carries every {@link ThrottleObservedEvent}. */
  throttle: "mcp-upstream-throttle:throttle",
  /** Carries every `cooldown-hit` {@link ThrottleEvent}. */
  "cooldown-hit": "mcp-upstream-throttle:cooldown-hit",
  /** Carries every `retry` {@link ThrottleEvent}. */
  retry: "mcp-upstream-throttle:retry",
  /** Carries every {@link StoreErrorEvent}. */
  "store-error": "mcp-upstream-throttle:store-error",
  /** Carries every {@link PreemptEvent}. */
  preempt: "mcp-upstream-throttle:preempt",
} as const satisfies Record<ThrottleEvent["type"], string>;

interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** The parts of `node:diagnostics_channel` used here. */
interface DiagnosticsChannels {
  channel(name: string): Channel;
  subscribe(name: string, listener: (message: unknown) => void): void;
  unsubscribe(name: string, listener: (message: unknown) => void): void;
}

/**
 * `node:diagnostics_channel`, reached through `process.getBuiltinModule` (Node 20.16+, Deno,
 * Bun, Workers with `nodejs_compat`), never a static import, so the main entry loads where that
 * module does not exist; `undefined` there.
 */
export function diagnosticsChannels(): DiagnosticsChannels | undefined {
  try {
    const module = (
      globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
    ).process?.getBuiltinModule?.("node:diagnostics_channel") as DiagnosticsChannels | undefined;
    return typeof module?.channel === "function" ? module : undefined;
  } catch {
    return undefined;
  }
}

let channels: Record<ThrottleEvent["type"], Channel> | null | undefined;

/** The channels, made on first use (`null` where there are none). */
function eventChannels(): Record<ThrottleEvent["type"], Channel> | null {
  if (channels !== undefined) return channels;
  const module = diagnosticsChannels();
  channels =
    module === undefined
      ? null
      : (Object.fromEntries(
          Object.entries(EVENT_CHANNELS).map(([type, name]) => [type, module.channel(name)]),
        ) as Record<ThrottleEvent["type"], Channel>);
  return channels;
}

/**
 * Reports `event` to the hook and the diagnostics channel. A hook that throws is ignored; a
 * channel subscriber that throws is Node's business (it rethrows on the next tick).
 */
export function emitEvent(hook: ThrottleEventHook | undefined, event: ThrottleEvent): void {
  if (hook !== undefined) {
    try {
      const returned: unknown = hook(event);
      // An async hook that rejects: caught here, or Node would end the process for it.
      if (typeof (returned as { then?: unknown } | null)?.then === "function")
        (returned as PromiseLike<unknown>).then(undefined, () => {});
    } catch {
      // An observer never changes the outcome of the call it observes.
    }
  }
  const channel = eventChannels()?.[event.type];
  // Node catches a subscriber that throws and rethrows its error on the next tick, as an
  // uncaught exception: that is Node's rule for diagnostics channels, out of this library's hands.
  if (channel?.hasSubscribers) channel.publish(event);
}

/** The `throttle` event of a throttle error (anything with its fields). */
export function throttleEvent(
  error: {
    limit: string;
    status: number;
    delaySource: DelaySource;
    retryAfterMs?: number | undefined;
    host?: string | undefined;
  },
  source: EventSource,
): ThrottleObservedEvent {
  const event: ThrottleObservedEvent = {
    type: "throttle",
    source,
    limit: error.limit,
    status: error.status,
    delaySource: error.delaySource,
  };
  if (error.retryAfterMs !== undefined) event.retryAfterMs = error.retryAfterMs;
  if (error.host !== undefined) event.host = error.host;
  return event;
}

/**
 * The `preempt` event of a spent quota a successful response told of: the limit, the response's
 * own status, and the time to the reset; `undefined` when no wait is known (nothing was remembered).
 */
export function preemptEvent(
  spent: {
    limit: string;
    delaySource: DelaySource;
    retryAfterMs?: number | undefined;
    host?: string | undefined;
  },
  status: number,
  source: EventSource,
): PreemptEvent | undefined {
  if (spent.retryAfterMs === undefined) return undefined;
  const event: PreemptEvent = {
    type: "preempt",
    source,
    limit: spent.limit,
    status,
    retryAfterMs: spent.retryAfterMs,
    delaySource: spent.delaySource,
  };
  if (spent.host !== undefined) event.host = spent.host;
  return event;
}

/** The `store-error` event of a failure: its name and code only, never its message. */
export function storeErrorEvent(
  error: unknown,
  source: EventSource,
  operation: StoreErrorEvent["operation"],
): StoreErrorEvent {
  const event: StoreErrorEvent = { type: "store-error", source, operation, errorName: "Error" };
  try {
    const { name, code } = error as { name?: unknown; code?: unknown };
    if (typeof name === "string" && /^[A-Za-z][\w]{0,63}$/.test(name)) event.errorName = name;
    if (typeof code === "string" && /^[A-Za-z][\w-]{0,63}$/.test(code)) event.errorCode = code;
  } catch {
    // A hostile error keeps the generic name.
  }
  return event;
}

/** Checks an `onEvent` option at construction. */
export function eventHook(value: unknown, name = "onEvent"): ThrottleEventHook | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw new TypeError(`\`${name}\` must be a function`);
  return value as ThrottleEventHook;
}
