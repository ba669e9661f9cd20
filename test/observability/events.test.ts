// Design §10, routes one and two: every wrapper reports to `onEvent` and publishes on
// `node:diagnostics_channel`; events carry numbers and identifiers, never a credential or
// an upstream's words; a hook that throws changes nothing.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { describe, expect, it } from "vitest";
import { EVENT_CHANNELS, type ThrottleEvent, throttledFetch } from "../../src/index.js";
import { MESSAGE, runEventScenario, SECRET } from "../helpers/event-scenario.js";
import { startServer } from "../helpers/http-server.js";

/** What the scenario must report, in order, whichever route carries it. */
const EXPECTED: Partial<ThrottleEvent>[] = [
  {
    type: "throttle",
    source: "throttledFetch",
    limit: "search",
    status: 429,
    retryAfterMs: 50,
    delaySource: "retry-after-ms",
    host: "127.0.0.1",
  },
  {
    type: "retry",
    source: "throttledFetch",
    limit: "search",
    attempt: 1,
    status: 429,
    host: "127.0.0.1",
  },
  {
    type: "throttle",
    source: "throttledFetch",
    limit: "search",
    status: 429,
    retryAfterMs: 30_000,
    delaySource: "retry-after",
  },
  {
    type: "cooldown-hit",
    source: "throttledFetch",
    limit: "search",
    status: 429,
    host: "127.0.0.1",
  },
  {
    type: "store-error",
    source: "throttledFetch",
    operation: "get",
    errorName: "Error",
    errorCode: "ECONNREFUSED",
  },
  {
    type: "throttle",
    source: "throttleInterceptor",
    limit: "undici",
    status: 429,
    retryAfterMs: 30_000,
  },
  { type: "cooldown-hit", source: "throttleInterceptor", limit: "undici", status: 429 },
  {
    type: "throttle",
    source: "withUpstreamThrottle",
    limit: "vendor",
    status: 429,
    retryAfterMs: 30_000,
    delaySource: "retry-after",
  },
  { type: "cooldown-hit", source: "withUpstreamThrottle", limit: "vendor", status: 429 },
  { type: "cooldown-hit", source: "withUpstreamThrottle", limit: "vendor", status: 429 },
  { type: "throttle", source: "fanOutTool", limit: "vendor" },
];

function expectScenario(events: ThrottleEvent[]) {
  expect(events).toHaveLength(EXPECTED.length);
  for (const [index, expected] of EXPECTED.entries()) expect(events[index]).toMatchObject(expected);
  const retry = events[1];
  if (retry?.type === "retry") expect(retry.waitMs).toBeGreaterThanOrEqual(50);
  const text = JSON.stringify(events);
  for (let i = 0; i + 6 <= SECRET.length; i += 1)
    expect(text).not.toContain(SECRET.slice(i, i + 6));
  expect(text).not.toContain("upstream words");
  expect(text).not.toContain("/long");
  expect(text).not.toContain("api_key");
  expect(MESSAGE).toContain("upstream words");
}

describe("events", () => {
  it("onEvent: a throttle, a retry, a cooldown hit and a store failure, from every wrapper", async () => {
    const events: ThrottleEvent[] = [];
    await runEventScenario((event) => events.push(event));
    expectScenario(events);
  });

  it("node:diagnostics_channel: the same events, with no onEvent passed", async () => {
    const events: ThrottleEvent[] = [];
    const listener = (message: unknown) => events.push(message as ThrottleEvent);
    for (const name of Object.values(EVENT_CHANNELS)) subscribe(name, listener);
    try {
      await runEventScenario();
    } finally {
      for (const name of Object.values(EVENT_CHANNELS)) unsubscribe(name, listener);
    }
    expectScenario(events);
  });

  it("a hook that throws changes no outcome", async () => {
    const upstream = await startServer((_req, res) => {
      res.writeHead(429, { "retry-after": "5" });
      res.end();
    });
    try {
      const api = throttledFetch({
        limit: "search",
        onEvent: () => {
          throw new Error("observer bug");
        },
      });
      await expect(api(upstream.url)).rejects.toMatchObject({
        name: "UpstreamRateLimitedError",
        retryAfterSeconds: 5,
      });
    } finally {
      await upstream.close();
    }
  });

  it("an async hook that rejects is caught, on every wrapper (issue 17 item 11)", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    let calls = 0;
    try {
      await runEventScenario(async () => {
        calls += 1;
        throw new Error("async observer bug");
      });
      // Every hook has been called and rejected by now; Node reports what nobody caught once
      // the microtasks drain, before the next macrotask (this setImmediate).
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(calls).toBe(EXPECTED.length);
    expect(unhandled).toStrictEqual([]);
  });

  it("names its channels after the event types", () => {
    expect(EVENT_CHANNELS).toStrictEqual({
      throttle: "mcp-upstream-throttle:throttle",
      "cooldown-hit": "mcp-upstream-throttle:cooldown-hit",
      retry: "mcp-upstream-throttle:retry",
      "store-error": "mcp-upstream-throttle:store-error",
      preempt: "mcp-upstream-throttle:preempt",
    });
  });
});
