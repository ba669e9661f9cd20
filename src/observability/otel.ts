// "mcp-upstream-throttle/otel": the events of the observability guide as OpenTelemetry span events
// and metrics, opt-in. Only this entry loads `@opentelemetry/api` (an optional peer): the main
// entry stays free of it. Attribute names follow OpenTelemetry's semantic conventions where they
// exist (`error.type`, `http.response.status_code`, `server.address`); the rest are namespaced.

/**
 * The events as OpenTelemetry span events and metrics.
 *
 * @module mcp-upstream-throttle/otel
 */

import { type Attributes, type Meter, metrics, trace } from "@opentelemetry/api";
import { bool, optionsObject } from "../internal/options.js";
import {
  diagnosticsChannels,
  EVENT_CHANNELS,
  type ThrottleEvent,
  type ThrottleEventHook,
} from "./events.js";

export type { ThrottleEventHook };

/**
 * Options of `openTelemetryHook` and `instrumentThrottles`: where metrics go, and what is recorded.
 */
export interface OpenTelemetryOptions {
  /** Where the metrics go. @default metrics.getMeter("mcp-upstream-throttle") */
  meter?: Meter | undefined;
  /** Record metrics. @default true */
  metrics?: boolean | undefined;
  /** Add a span event to the active span (the tool call's, when the server is instrumented). @default true */
  spanEvents?: boolean | undefined;
}

/** The metrics, by instrument name. */
export const METRIC_NAMES = {
  /** A counter of throttles, by limit, status, host and wrapper. */
  throttles: "mcp.upstream_throttle.throttles",
  /** A histogram of the delays upstreams stated, in seconds. */
  retryAfter: "mcp.upstream_throttle.retry_after",
  /** A counter of upstream calls the cooldown answered without making them. */
  savedCalls: "mcp.upstream_throttle.cooldown.saved_calls",
  /** A counter of throttled calls waited out and sent again. */
  retries: "mcp.upstream_throttle.retries",
  /** A counter of cooldown store failures and invalid entries. */
  storeErrors: "mcp.upstream_throttle.store_errors",
  /** A counter of spent quotas a successful response told of, that opened the cooldown. */
  preemptions: "mcp.upstream_throttle.preemptions",
} as const;

const NAMESPACE = "mcp.upstream_throttle";

/**
 * An `onEvent` hook that records each event: `throttledFetch({ onEvent: openTelemetryHook() })`.
 * Metrics: a counter of throttles (by limit, status, host, wrapper), a histogram of the delays
 * upstreams stated (seconds), a counter of upstream calls the cooldown saved, counters of
 * retries, store errors and pre-emptions. Span events on the active span, named `mcp.upstream_throttle.<type>`.
 *
 * @example
 * ```ts
 * import { throttledFetch } from "mcp-upstream-throttle";
 * import { openTelemetryHook } from "mcp-upstream-throttle/otel";
 *
 * const github = throttledFetch({ limit: "github", onEvent: openTelemetryHook() });
 * ```
 */
export function openTelemetryHook(options: OpenTelemetryOptions = {}): ThrottleEventHook {
  const given = optionsObject("options", options);
  const recordMetrics = bool("metrics", given.metrics, true);
  const spanEvents = bool("spanEvents", given.spanEvents, true);
  if (
    given.meter !== undefined &&
    (typeof given.meter !== "object" ||
      given.meter === null ||
      typeof given.meter.createCounter !== "function" ||
      typeof given.meter.createHistogram !== "function")
  ) {
    throw new TypeError("`meter` must be an OpenTelemetry Meter");
  }
  const meter = given.meter ?? metrics.getMeter("mcp-upstream-throttle");
  const record = recorder(meter);
  return (event) => {
    const spanAttributes = attributesOf(event);
    if (spanEvents) {
      trace
        .getActiveSpan()
        ?.addEvent(`${NAMESPACE}.${event.type.replace("-", "_")}`, spanAttributes);
    }
    if (recordMetrics) record(event, bounded(spanAttributes));
  };
}

/** The instruments on `meter`, and what records an event on them. */
function recorder(meter: Meter): (event: ThrottleEvent, attributes: Attributes) => void {
  const counter = (name: string, description: string, unit: string) =>
    meter.createCounter(name, { description, unit });
  const throttles = counter(
    METRIC_NAMES.throttles,
    "Upstream throttles seen by a tool",
    "{throttle}",
  );
  const retryAfter = meter.createHistogram(METRIC_NAMES.retryAfter, {
    description: "Delays upstreams stated in their throttles",
    unit: "s",
  });
  const counters = {
    "cooldown-hit": counter(
      METRIC_NAMES.savedCalls,
      "Upstream calls the cooldown answered without making them",
      "{call}",
    ),
    retry: counter(METRIC_NAMES.retries, "Throttled calls waited out and sent again", "{retry}"),
    "store-error": counter(
      METRIC_NAMES.storeErrors,
      "Cooldown store failures and invalid entries (the call went on without it)",
      "{error}",
    ),
    preempt: counter(
      METRIC_NAMES.preemptions,
      "Spent quotas a successful response told of (the cooldown opened until the reset)",
      "{preemption}",
    ),
  };
  return (event, attributes) => {
    if (event.type !== "throttle") {
      counters[event.type].add(1, attributes);
      return;
    }
    throttles.add(1, attributes);
    const stated =
      event.delaySource !== undefined &&
      event.delaySource !== "default" &&
      event.delaySource !== "none";
    if (event.retryAfterMs !== undefined && stated) {
      retryAfter.record(event.retryAfterMs / 1000, attributes);
    }
  };
}

/**
 * Records the events of every wrapper in the process, from the `node:diagnostics_channel`
 * channels, without passing `onEvent` to each (Node, Deno, Bun; a no-op where there are no
 * channels). Returns a function that stops it.
 *
 * @example
 * ```ts
 * import { instrumentThrottles } from "mcp-upstream-throttle/otel";
 *
 * const stop = instrumentThrottles(); // every wrapper of the process, through the global meter
 * // On shutdown:
 * stop();
 * ```
 */
export function instrumentThrottles(options: OpenTelemetryOptions = {}): () => void {
  const hook = openTelemetryHook(options);
  const diagnostics = diagnosticsChannels();
  if (diagnostics === undefined) return () => {};
  const listener = (message: unknown) => hook(message as ThrottleEvent);
  const names = Object.values(EVENT_CHANNELS);
  for (const name of names) diagnostics.subscribe(name, listener);
  return () => {
    for (const name of names) diagnostics.unsubscribe(name, listener);
  };
}

/**
 * The attributes a metric series is keyed by: bounded sets only (the wrapper, limit, status,
 * host, delay source, error kind). A wait, a time left or an attempt number would make every
 * distinct value a new series; they stay on the span event, and waits go to the histogram.
 */
const METRIC_ATTRIBUTES: ReadonlySet<string> = new Set([
  `${NAMESPACE}.source`,
  `${NAMESPACE}.limit`,
  `${NAMESPACE}.delay_source`,
  `${NAMESPACE}.operation`,
  `${NAMESPACE}.error_code`,
  "error.type",
  "http.response.status_code",
  "server.address",
]);

function bounded(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (METRIC_ATTRIBUTES.has(name)) kept[name] = value;
  }
  return kept;
}

/** The event as attributes: semantic-convention names where OpenTelemetry has them. */
function attributesOf(event: ThrottleEvent): Attributes {
  const attributes: Attributes = { [`${NAMESPACE}.source`]: event.source };
  switch (event.type) {
    case "store-error":
      attributes["error.type"] = event.errorName;
      attributes[`${NAMESPACE}.operation`] = event.operation;
      if (event.errorCode !== undefined) attributes[`${NAMESPACE}.error_code`] = event.errorCode;
      return attributes;
    case "retry":
      attributes[`${NAMESPACE}.attempt`] = event.attempt;
      attributes[`${NAMESPACE}.wait_ms`] = event.waitMs;
      break;
    case "cooldown-hit":
      attributes[`${NAMESPACE}.retry_after_ms`] = event.retryAfterMs;
      break;
    case "preempt":
      // A successful call: no `error.type`.
      attributes[`${NAMESPACE}.limit`] = event.limit;
      attributes[`${NAMESPACE}.retry_after_ms`] = event.retryAfterMs;
      attributes[`${NAMESPACE}.delay_source`] = event.delaySource;
      attributes["http.response.status_code"] = event.status;
      if (event.host !== undefined) attributes["server.address"] = event.host;
      return attributes;
    case "throttle":
      if (event.retryAfterMs !== undefined)
        attributes[`${NAMESPACE}.retry_after_ms`] = event.retryAfterMs;
      if (event.delaySource !== undefined)
        attributes[`${NAMESPACE}.delay_source`] = event.delaySource;
      break;
  }
  attributes["error.type"] = "rate_limited";
  if (event.limit !== undefined) attributes[`${NAMESPACE}.limit`] = event.limit;
  if (event.status !== undefined) attributes["http.response.status_code"] = event.status;
  if (event.host !== undefined) attributes["server.address"] = event.host;
  return attributes;
}
