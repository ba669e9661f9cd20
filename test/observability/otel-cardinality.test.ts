// Metric attributes are bounded sets (limit, status, source, host): a wait or a time left is a
// number an upstream varies freely, so it goes to a histogram, never into a series' attributes.
// The real @opentelemetry/sdk-metrics, its own meter: nothing global.

import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { describe, expect, it } from "vitest";
import type { ThrottleEvent } from "../../src/observability/events.js";
import { METRIC_NAMES, openTelemetryHook } from "../../src/observability/otel.js";

async function seriesAfter(events: ThrottleEvent[]) {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  const provider = new MeterProvider({ readers: [reader] });
  const hook = openTelemetryHook({ meter: provider.getMeter("test"), spanEvents: false });
  for (const event of events) hook(event);
  await reader.forceFlush();
  const series = new Map<string, number>();
  const points = new Map<string, number>();
  for (const batch of exporter.getMetrics()) {
    for (const scope of batch.scopeMetrics) {
      for (const metric of scope.metrics) {
        series.set(metric.descriptor.name, metric.dataPoints.length);
        let total = 0;
        for (const point of metric.dataPoints) {
          const value = point.value as number | { count: number };
          total += typeof value === "number" ? value : value.count;
        }
        points.set(metric.descriptor.name, total);
      }
    }
  }
  await provider.shutdown();
  return { series, points };
}

const base = { source: "throttledFetch", limit: "github", host: "api.github.com" } as const;

describe("OpenTelemetry metrics: bounded attributes", () => {
  it("500 throttles with 500 distinct waits make one series per metric, every wait in the histogram", async () => {
    const events: ThrottleEvent[] = Array.from({ length: 500 }, (_, i) => ({
      ...base,
      type: "throttle",
      status: 429,
      retryAfterMs: 1000 + i,
      delaySource: "retry-after",
    }));
    const { series, points } = await seriesAfter(events);
    expect(series.get(METRIC_NAMES.throttles)).toBe(1);
    expect(points.get(METRIC_NAMES.throttles)).toBe(500);
    expect(series.get(METRIC_NAMES.retryAfter)).toBe(1);
    expect(points.get(METRIC_NAMES.retryAfter)).toBe(500);
  });

  it("cooldown hits with a new time left each and retries with a new wait each stay one series", async () => {
    const events: ThrottleEvent[] = [];
    for (let i = 0; i < 300; i += 1) {
      events.push({ ...base, type: "cooldown-hit", retryAfterMs: 60_000 - i * 7 });
      events.push({ ...base, type: "retry", attempt: 1 + (i % 3), waitMs: 100 + i * 1.5 });
    }
    const { series, points } = await seriesAfter(events);
    expect(series.get(METRIC_NAMES.savedCalls)).toBe(1);
    expect(points.get(METRIC_NAMES.savedCalls)).toBe(300);
    expect(series.get(METRIC_NAMES.retries)).toBe(1);
    expect(points.get(METRIC_NAMES.retries)).toBe(300);
  });

  it("a new limit or host is a new series: the bounded attributes are kept", async () => {
    const events: ThrottleEvent[] = ["a", "b", "c"].map((limit) => ({
      ...base,
      limit,
      type: "throttle",
      status: 429,
      retryAfterMs: 1000,
      delaySource: "retry-after",
    }));
    const { series } = await seriesAfter(events);
    expect(series.get(METRIC_NAMES.throttles)).toBe(3);
  });
});
