// When honorThrottles sends a call again, and what it says about it: a `retry` event only for a
// retry that is sent, no re-send of a tool on a sentence alone unless the host opts in, and a
// probe that hangs holds the others for a bounded time (fake timers, performance.now included).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROBE_HOLD_MS } from "../../src/client/cooldown.js";
import { honorThrottles, readThrottle, type ThrottleEvent } from "../../src/client/index.js";
import { rateLimitedResult } from "../../src/index.js";

const ok = { content: [{ type: "text", text: "3 hits" }] };
const params = { name: "search", arguments: { query: "q" } };
const sentence = (seconds: number) => ({
  content: [
    { type: "text", text: `Rate limited by search_rate_limit. Retry after ${seconds} seconds.` },
  ],
  isError: true,
});

function recorder() {
  const events: ThrottleEvent[] = [];
  return { events, onEvent: (event: ThrottleEvent) => events.push(event) };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("honorThrottles: retry events", () => {
  it("reports no retry for a wait an abort ends: the retry was never sent", async () => {
    const controller = new AbortController();
    const { events, onEvent } = recorder();
    let calls = 0;
    const call = honorThrottles(
      async (_p: unknown, _o?: unknown) => {
        calls += 1;
        return rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 2 });
      },
      { onEvent },
    );
    const pending = call(params, { signal: controller.signal }).catch((reason: unknown) => reason);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort("stop");
    expect(await pending).toBe("stop");
    expect(calls).toBe(1);
    expect(events.map((event) => event.type)).toStrictEqual(["throttle"]);
  });

  it("reports one retry when the waited call is sent", async () => {
    const { events, onEvent } = recorder();
    const answers = [rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 1 }), ok];
    const call = honorThrottles(async (_p: unknown) => answers.shift(), { onEvent });
    const pending = call(params);
    await vi.advanceTimersByTimeAsync(3000);
    await expect(pending).resolves.toBe(ok);
    expect(events.map((event) => event.type)).toStrictEqual(["throttle", "retry"]);
  });
});

describe("honorThrottles: a throttle known only from its sentence", () => {
  it("is handed back, not sent again: the text may be content the tool relayed", async () => {
    let calls = 0;
    const call = honorThrottles(async (_p: unknown) => {
      calls += 1;
      return calls === 1 ? sentence(2) : ok;
    });
    const pending = call(params);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await pending).toStrictEqual(sentence(2));
    expect(readThrottle(sentence(2))).toMatchObject({ source: "text", retryAfterMs: 2000 });
    expect(calls).toBe(1);
  });

  it("is waited out and sent again with `retryOnText: true`", async () => {
    let calls = 0;
    const call = honorThrottles(
      async (_p: unknown) => {
        calls += 1;
        return calls === 1 ? sentence(2) : ok;
      },
      { retryOnText: true },
    );
    const pending = call(params);
    await vi.advanceTimersByTimeAsync(3000);
    await expect(pending).resolves.toBe(ok);
    expect(calls).toBe(2);
  });

  it("rejects a `retryOnText` that is no boolean, naming it", () => {
    expect(() => honorThrottles(async () => ok, { retryOnText: "yes" as never })).toThrow(
      "`retryOnText`",
    );
  });
});

describe("honorThrottles: a probe that never settles", () => {
  it("holds later calls for the probe's hold at most, then the next call probes in its place", async () => {
    let calls = 0;
    const call = honorThrottles(
      (_p: unknown) => {
        calls += 1;
        if (calls === 1) {
          return Promise.resolve(
            rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 1 }),
          );
        }
        // The first probe hangs forever; the next call's answers.
        return calls === 2 ? new Promise<never>(() => {}) : Promise.resolve(ok);
      },
      { maxAttempts: 0, maxWaitMs: 60_000 },
    );
    await call(params);
    await vi.advanceTimersByTimeAsync(1000);
    void call(params); // the probe, which hangs
    let later: unknown;
    void call(params).then((value) => {
      later = value;
    });
    await vi.advanceTimersByTimeAsync(PROBE_HOLD_MS + 10);
    expect(later).toBe(ok);
    expect(calls).toBe(3);
    expect(PROBE_HOLD_MS).toBeLessThan(60_000);
  });
});
