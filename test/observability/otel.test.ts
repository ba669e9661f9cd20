// Design §10, route three: OpenTelemetry, through the real SDK's in-memory exporters. The same
// scenario as the events test, inside an active span standing for the tool call: span events
// on that span, and the metrics, with semantic-convention attributes and nothing secret.

import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  instrumentThrottles,
  METRIC_NAMES,
  openTelemetryHook,
} from "../../src/observability/otel.js";
import { runEventScenario, SECRET } from "../helpers/event-scenario.js";

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 60_000,
});
const meterProvider = new MeterProvider({ readers: [reader] });
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(spans)],
});
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
});
afterAll(async () => {
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  context.disable();
  trace.disable();
  metrics.disable();
});

/** Runs the scenario inside a span, as an instrumented MCP server runs a tool call. */
async function inToolCallSpan(run: () => Promise<void>) {
  spans.reset();
  metricExporter.reset();
  const tracer = trace.getTracer("test");
  await tracer.startActiveSpan("tools/call search", async (span) => {
    await run();
    span.end();
  });
  await reader.forceFlush();
  const [span] = spans.getFinishedSpans();
  const points = new Map<string, { attributes: Record<string, unknown>; value: unknown }[]>();
  for (const resource of metricExporter.getMetrics()) {
    for (const scope of resource.scopeMetrics) {
      for (const metric of scope.metrics) {
        points.set(
          metric.descriptor.name,
          metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
        );
      }
    }
  }
  return { span, points };
}

function expectTelemetry({ span, points }: Awaited<ReturnType<typeof inToolCallSpan>>) {
  const names = span?.events.map((event) => event.name) ?? [];
  expect(names.filter((name) => name === "mcp.upstream_throttle.throttle")).toHaveLength(5);
  expect(names.filter((name) => name === "mcp.upstream_throttle.cooldown_hit")).toHaveLength(4);
  expect(names.filter((name) => name === "mcp.upstream_throttle.retry")).toHaveLength(1);
  expect(names.filter((name) => name === "mcp.upstream_throttle.store_error")).toHaveLength(1);
  const throttle = span?.events.find((event) => event.name === "mcp.upstream_throttle.throttle");
  expect(throttle?.attributes).toMatchObject({
    "error.type": "rate_limited",
    "http.response.status_code": 429,
    "server.address": "127.0.0.1",
    "mcp.upstream_throttle.limit": "search",
    "mcp.upstream_throttle.source": "throttledFetch",
    "mcp.upstream_throttle.delay_source": "retry-after-ms",
  });

  const throttles = points.get(METRIC_NAMES.throttles) ?? [];
  const total = throttles.reduce((sum, point) => sum + Number(point.value), 0);
  expect(total).toBe(5);
  const search = throttles.filter((p) => p.attributes["mcp.upstream_throttle.limit"] === "search");
  expect(search.reduce((sum, point) => sum + Number(point.value), 0)).toBe(2);
  const saved = points.get(METRIC_NAMES.savedCalls) ?? [];
  expect(saved.reduce((sum, point) => sum + Number(point.value), 0)).toBe(4);
  expect(points.get(METRIC_NAMES.retries)?.[0]?.value).toBe(1);
  expect(points.get(METRIC_NAMES.storeErrors)?.[0]?.attributes).toMatchObject({
    "error.type": "Error",
    "mcp.upstream_throttle.error_code": "ECONNREFUSED",
  });
  // Stated delays only: 50 ms, and 30 s three times (the fan-out's answer states none).
  const delays = points.get(METRIC_NAMES.retryAfter) ?? [];
  const counted = delays.reduce(
    (sum, point) => sum + Number((point.value as { count: number }).count),
    0,
  );
  expect(counted).toBe(4);

  const everything = JSON.stringify({ events: span?.events, points: [...points] });
  for (let i = 0; i + 6 <= SECRET.length; i += 1)
    expect(everything).not.toContain(SECRET.slice(i, i + 6));
  expect(everything).not.toContain("upstream words");
}

describe("OpenTelemetry", () => {
  it("openTelemetryHook() as onEvent: span events on the tool call's span, and metrics", async () => {
    const onEvent = openTelemetryHook();
    expectTelemetry(await inToolCallSpan(() => runEventScenario(onEvent)));
  });

  it("instrumentThrottles(): the same from the diagnostics channels, with no onEvent passed", async () => {
    const stop = instrumentThrottles();
    try {
      expectTelemetry(await inToolCallSpan(() => runEventScenario()));
    } finally {
      stop();
    }
  });
});

describe("OpenTelemetry and a pre-emption", () => {
  it("counts it apart from throttles, with no error.type: the call it came from succeeded", async () => {
    const onEvent = openTelemetryHook();
    const { span, points } = await inToolCallSpan(async () => {
      onEvent({
        type: "preempt",
        source: "throttledFetch",
        limit: "core",
        status: 200,
        retryAfterMs: 120_000,
        delaySource: "x-ratelimit-reset",
        host: "api.github.com",
      });
    });
    const event = span?.events.find((e) => e.name === "mcp.upstream_throttle.preempt");
    expect(event?.attributes).toStrictEqual({
      "mcp.upstream_throttle.source": "throttledFetch",
      "mcp.upstream_throttle.limit": "core",
      "mcp.upstream_throttle.retry_after_ms": 120_000,
      "mcp.upstream_throttle.delay_source": "x-ratelimit-reset",
      "http.response.status_code": 200,
      "server.address": "api.github.com",
    });
    expect(points.get(METRIC_NAMES.preemptions)?.[0]?.value).toBe(1);
    expect(points.get(METRIC_NAMES.throttles)).toBeUndefined();
  });
});

describe("openTelemetryHook checks its options (issue 17 item 15)", () => {
  it.each([
    ["metrics", { metrics: "no" }],
    ["spanEvents", { spanEvents: 0 }],
    ["meter", { meter: "m" }],
    ["meter", { meter: {} }],
  ])("throws a TypeError naming `%s`", (name, options) => {
    expect(() => openTelemetryHook(options as never)).toThrow(new RegExp(`\`${name}\``));
    expect(() => instrumentThrottles(options as never)).toThrow(TypeError);
  });

  it("throws for options that are no object", () => {
    expect(() => openTelemetryHook(5 as never)).toThrow(/`options`/);
  });
});
