// Attacks on the host side (issues 17 and 18): one tool's upstream planting a cooldown on another
// tool, blank limits, hooks that reject, a server that says "retry now" forever, a wall-clock
// step, and a stampede at the end of a cooldown when the callers' budget is short.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { honorThrottles, readThrottle, type ThrottleEvent } from "../../src/client/index.js";
import { rateLimitedResult } from "../../src/index.js";

const ok = { content: [{ type: "text", text: "3 hits" }] };
const params = (name = "search") => ({ name, arguments: {} });
const throttled = (limit: string, retryAfterSeconds: number) =>
  rateLimitedResult({ limit, retryAfterSeconds });
/** Moves the host's clock (`performance.now`) and its timers by `ms`, without waiting. */
const pause = (ms: number) => vi.advanceTimersByTimeAsync(ms);
/** Resolves after Node has reported the unhandled rejections of the microtasks run so far. */
const afterRejectionsReported = () => new Promise((resolve) => setImmediate(resolve));

/** A hand-built §2 result with any limit, even one `rateLimitedResult` refuses. */
const withLimit = (limit: string) => ({
  content: [{ type: "text", text: `Rate limited by ${limit}. Retry after 60 seconds.` }],
  structuredContent: {
    error: { type: "rate_limited", retry_after_seconds: 60, limit, message: "Slow down." },
  },
  isError: true,
});

// Time is simulated: the wall clock (`Date`) stays real, so a test can step it on its own.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("host cooldown: keyed by tool and limit (issue 17 #8)", () => {
  it("one tool's upstream naming another tool's limit does not lock that tool out", async () => {
    const calls: string[] = [];
    const callTool = async (p: { name: string }) => {
      calls.push(p.name);
      if (p.name === "weather") return throttled("github", 86_400);
      return calls.filter((name) => name === "github_search").length === 1
        ? throttled("github", 1)
        : ok;
    };
    const call = honorThrottles(callTool, { maxWaitMs: 0 });
    await call(params("github_search"));
    await call(params("weather"));
    await pause(1_100);
    await expect(call(params("github_search"))).resolves.toBe(ok);
    expect(calls).toStrictEqual(["github_search", "weather", "github_search"]);
    // The weather tool itself stays held back by what its own upstream said.
    expect(readThrottle(await call(params("weather")))?.retryAfterMs).toBeGreaterThan(86_000_000);
    expect(calls).toHaveLength(3);
  });
});

describe("host cooldown: blank limits (issue 17 #9)", () => {
  for (const limit of [" ", "\t", "\u3000", "\n"]) {
    it(`never throws for a limit of ${JSON.stringify(limit)}, and reads it as no throttle`, async () => {
      const result = withLimit(limit);
      expect(readThrottle(result)).toBeUndefined();
      let count = 0;
      const call = honorThrottles(async (_p: unknown) => {
        count += 1;
        return result;
      });
      for (let i = 0; i < 3; i += 1) await expect(call(params())).resolves.toBe(result);
      expect(count).toBe(3);
    });
  }
});

describe("honorThrottles: hooks (issue 17 #11)", () => {
  it("an async onEvent that rejects is no unhandled rejection and changes nothing", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const answers = [throttled("search_rate_limit", 0), ok];
      const call = honorThrottles(async (_p: unknown) => answers.shift() ?? ok, {
        onEvent: async () => {
          throw new Error("hook failed");
        },
      });
      const answer = call(params());
      await vi.runAllTimersAsync(); // the floor between two calls, with its jitter
      await expect(answer).resolves.toBe(ok);
      await afterRejectionsReported();
      expect(unhandled).toStrictEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });
});

describe("honorThrottles: a server that says retry now, forever (issue 17 #14)", () => {
  it("waits at least a floor between calls and stops when the budget is spent", async () => {
    let count = 0;
    const events: ThrottleEvent[] = [];
    const call = honorThrottles(
      async (_p: unknown) => {
        count += 1;
        return throttled("search_rate_limit", 0);
      },
      { maxAttempts: 1000, maxWaitMs: 500, onEvent: (event) => events.push(event) },
    );
    const started = performance.now();
    const pending = call(params());
    await vi.runAllTimersAsync();
    const answer = await pending;
    expect(readThrottle(answer)).toMatchObject({ retryAfterMs: 0 });
    // A floor of 100 ms a retry: at most 5 retries fit 500 ms.
    expect(count).toBeLessThanOrEqual(6);
    expect(count).toBeGreaterThanOrEqual(2);
    expect(performance.now() - started).toBeLessThan(1_500); // simulated milliseconds
    for (const event of events)
      if (event.type === "retry") expect(event.waitMs).toBeGreaterThanOrEqual(100);
  });
});

describe("host cooldown: a monotonic clock (issue 18 #8)", () => {
  it("a wall-clock step back does not extend a cooldown", async () => {
    // The wall clock as the process sees it, stepped back 20 s during a 1 s cooldown.
    let step = 0;
    const real = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => real() + step);
    let count = 0;
    const call = honorThrottles(
      async (_p: unknown) => {
        count += 1;
        return count === 1 ? throttled("search_rate_limit", 1) : ok;
      },
      { maxWaitMs: 0 },
    );
    await call(params());
    step = -20_000;
    await pause(1_100);
    await expect(call(params())).resolves.toBe(ok);
    expect(count).toBe(2);
  });
});

describe("host cooldown: one probe at its end, whatever the budget (issue 18 #11)", () => {
  it("200 parallel calls with `maxWaitMs: 10` make one server call at the cooldown's end", async () => {
    let count = 0;
    const callTool = async (_p: unknown) => {
      count += 1;
      if (count === 1) return throttled("search_rate_limit", 1);
      await new Promise((resolve) => setTimeout(resolve, 100)); // a fake timer: the test moves it
      return ok;
    };
    const call = honorThrottles(callTool, { maxWaitMs: 10 });
    await call(params());
    await pause(1_050);
    const all = Promise.all(Array.from({ length: 200 }, () => call(params())));
    await pause(100); // the probe's own 100 ms
    const answers = await all;
    expect(count).toBe(2);
    expect(answers.filter((answer) => answer === ok)).toHaveLength(1);
    // The others are answered here, in the throttle's shape, told to come back shortly.
    for (const answer of answers.filter((answer) => answer !== ok)) {
      expect(readThrottle(answer)).toMatchObject({
        limit: "search_rate_limit",
        retryAfterMs: 1000,
      });
    }
    // Once the probe succeeded, calls go again.
    const again = call(params());
    await pause(100);
    await expect(again).resolves.toBe(ok);
  });
});

describe("host cooldown: the default callKey for string-named calls (issue 20)", () => {
  it("keys `callTool(name, args)` (OpenAI Agents, mcp-use) by the name, so the cooldown applies", async () => {
    const names: string[] = [];
    const call = honorThrottles(async (name: string, _args: unknown) => {
      names.push(name);
      return name === "lookup" ? throttled("lookup_rate_limit", 60) : ok;
    });
    await call("lookup", {});
    expect(readThrottle(await call("lookup", {}))).toMatchObject({ limit: "lookup_rate_limit" });
    await expect(call("search", {})).resolves.toBe(ok);
    expect(names).toStrictEqual(["lookup", "search"]);
  });
});
