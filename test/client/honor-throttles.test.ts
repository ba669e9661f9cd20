// honorThrottles' own rules, on a scripted `callTool` (a function that answers from a list):
// the budget, attempts, clamp, jitter, cancellation, the cooldown and its answers, events,
// options. The real clients and servers are in sdk-clients, ai-sdk and langchain.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import {
  honorThrottles,
  isThrottleCooldownError,
  readThrottle,
  type ThrottleEvent,
} from "../../src/client/index.js";
import { rateLimitedResult } from "../../src/index.js";
import { EVENT_CHANNELS } from "../../src/observability/events.js";

type Answer = { value: unknown } | { error: unknown };
const ok = { content: [{ type: "text", text: "3 hits" }] };
const serverThrottle = (retryAfterMs?: number) =>
  new McpError(-32023, "Rate limited", retryAfterMs === undefined ? undefined : { retryAfterMs });
const toolThrottle = (retryAfterSeconds?: number, limit = "search_rate_limit") =>
  rateLimitedResult({ limit, retryAfterSeconds, message: "Slow down." });

/** A `callTool` that gives the answers in order (the last one forever) and records its calls. */
function scripted(...answers: Answer[]) {
  const calls: unknown[][] = [];
  const callTool = async (...args: unknown[]): Promise<unknown> => {
    calls.push(args);
    const answer = answers[Math.min(calls.length, answers.length) - 1] as Answer;
    if ("error" in answer) throw answer.error;
    return answer.value;
  };
  return { callTool, calls };
}

const params = (name = "search") => ({ name, arguments: { query: "q" } });

function recorder() {
  const events: ThrottleEvent[] = [];
  return { events, onEvent: (event: ThrottleEvent) => events.push(event) };
}

describe("honorThrottles: waiting", () => {
  it("waits out a throttle that fits the budget and returns the retry's answer", async () => {
    const { callTool, calls } = scripted({ error: serverThrottle(30) }, { value: ok });
    const { events, onEvent } = recorder();
    await expect(honorThrottles(callTool, { onEvent })(params())).resolves.toBe(ok);
    expect(calls).toHaveLength(2);
    expect(events.map((event) => event.type)).toStrictEqual(["throttle", "retry"]);
  });

  it("returns a tool-layer throttle that does not fit at once: the very object the call returned", async () => {
    const throttled = toolThrottle(60);
    const { callTool, calls } = scripted({ value: throttled });
    await expect(honorThrottles(callTool)(params())).resolves.toBe(throttled);
    expect(calls).toHaveLength(1);
  });

  it("rethrows an outer-layer throttle that does not fit at once: the very error thrown", async () => {
    const error = serverThrottle(60_000);
    const { callTool, calls } = scripted({ error });
    await expect(honorThrottles(callTool)(params())).rejects.toBe(error);
    expect(calls).toHaveLength(1);
  });

  it("does not wait for a throttle with no known delay, and remembers nothing of it", async () => {
    const error = serverThrottle();
    const { callTool, calls } = scripted({ error });
    const call = honorThrottles(callTool);
    await expect(call(params())).rejects.toBe(error);
    await expect(call(params())).rejects.toBe(error);
    expect(calls).toHaveLength(2);
  });

  it("counts the budget across attempts: a second delay that no longer fits is returned", async () => {
    const { callTool, calls } = scripted(
      { error: serverThrottle(60) },
      { error: serverThrottle(60) },
      { value: ok },
    );
    await expect(
      honorThrottles(callTool, { maxWaitMs: 100, cooldown: false })(params()),
    ).rejects.toBeInstanceOf(McpError);
    expect(calls).toHaveLength(2);
  });

  it("stops after `maxAttempts` retries and returns the last throttle", async () => {
    const { callTool, calls } = scripted({ value: toolThrottle(0) });
    const result = await honorThrottles(callTool, { maxAttempts: 2 })(params());
    expect(readThrottle(result)).toMatchObject({ retryAfterMs: 0 });
    expect(calls).toHaveLength(3);
  });

  it("never retries with `maxAttempts: 0`", async () => {
    const { callTool, calls } = scripted({ error: serverThrottle(1) }, { value: ok });
    await expect(honorThrottles(callTool, { maxAttempts: 0 })(params())).rejects.toBeInstanceOf(
      McpError,
    );
    expect(calls).toHaveLength(1);
  });

  it("clamps an absurd delay to `maxRetryAfterSeconds` (RL-8), then waits it", async () => {
    const { callTool, calls } = scripted({ error: serverThrottle(1e15) }, { value: ok });
    const { events, onEvent } = recorder();
    await expect(
      honorThrottles(callTool, { maxRetryAfterSeconds: 0.02, onEvent })(params()),
    ).resolves.toBe(ok);
    expect(calls).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: "throttle", retryAfterMs: 20 });
  });

  it("adds jitter and never takes any away (RL-7)", async () => {
    // Ten waits of the 100 ms floor plus jitter, on simulated time.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const waits: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const { callTool } = scripted({ error: serverThrottle(5) }, { value: ok });
      const answer = honorThrottles(callTool, {
        cooldown: false,
        onEvent: (event) => event.type === "retry" && waits.push(event.waitMs),
      })(params());
      await vi.runAllTimersAsync();
      await answer;
    }
    expect(waits).toHaveLength(10);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(5);
    expect(new Set(waits).size).toBeGreaterThan(1);
  });

  it.each([
    ["SDK 2.x: callTool(params, { signal })", (signal: AbortSignal) => [params(), { signal }]],
    [
      "SDK 1.x: callTool(params, resultSchema, { signal })",
      (signal: AbortSignal) => [params(), undefined, { signal }],
    ],
  ])("ends a wait the moment the signal aborts, with its reason (%s)", async (_case, args) => {
    const controller = new AbortController();
    const { callTool, calls } = scripted({ error: serverThrottle(5000) }, { value: ok });
    const call = honorThrottles(callTool, {
      onEvent: (event) => event.type === "throttle" && controller.abort("stop"),
    });
    await expect(call(...args(controller.signal))).rejects.toBe("stop");
    expect(calls).toHaveLength(1);
  });

  it("takes the signal from the `signal` option when given", async () => {
    const controller = new AbortController();
    const { callTool } = scripted({ error: serverThrottle(5000) }, { value: ok });
    const call = honorThrottles(callTool, {
      signal: (_params, options) => (options as { abortSignal: AbortSignal }).abortSignal,
      onEvent: (event) => event.type === "throttle" && controller.abort("stop"),
    });
    await expect(call(params(), { abortSignal: controller.signal })).rejects.toBe("stop");
  });

  it("passes `this` and the arguments through untouched", async () => {
    const client = {
      seen: [] as unknown[],
      async callTool(this: { seen: unknown[] }, ...args: unknown[]) {
        this.seen.push(...args);
        return ok;
      },
    };
    const options = { timeout: 5 };
    const call = honorThrottles(client.callTool);
    await call.call(client, params(), options);
    expect(client.seen).toStrictEqual([params(), options]);
    expect(client.seen[1]).toBe(options);
  });
});

describe("honorThrottles: the cooldown", () => {
  it("answers a call to a limit still cooling with a §2 result: the exact text, the time left", async () => {
    const { callTool, calls } = scripted({ value: toolThrottle(60) });
    const call = honorThrottles(callTool);
    await call(params());
    const answer = await call(params());
    expect(calls).toHaveLength(1);
    expect(answer).toStrictEqual(
      rateLimitedResult({
        limit: "search_rate_limit",
        retryAfterSeconds: 60,
        message: "Slow down.",
      }),
    );
  });

  it("answers a structured throttle from the cooldown in the shape it came in (_meta)", async () => {
    const meta = rateLimitedResult(
      { limit: "search_rate_limit", retryAfterSeconds: 60 },
      { placement: "meta" },
    );
    const { callTool, calls } = scripted({ value: meta });
    const call = honorThrottles(callTool);
    await call(params());
    expect(await call(params())).toStrictEqual(meta);
    expect(calls).toHaveLength(1);
  });

  it("opens no cooldown for a throttle known only from { error } or its text: it may be content a tool relayed", async () => {
    const error = rateLimitedResult({ limit: "search_rate_limit", retryAfterSeconds: 60 })
      .structuredContent?.error;
    const text = "Rate limited by search_rate_limit. Retry after 60 seconds.";
    const thrown = new Error(`MCP tool 'search' on server 'docs' returned an error: ${text}`);
    for (const outcome of [{ value: { error } }, { value: text }, { error: thrown }]) {
      const { callTool, calls } = scripted(outcome);
      const call = honorThrottles(callTool);
      for (let i = 0; i < 2; i += 1) {
        const answer = await call(params()).then(
          (value: unknown) => value,
          (reason: unknown) => reason,
        );
        expect(answer).toStrictEqual("value" in outcome ? outcome.value : thrown);
      }
      expect(calls).toHaveLength(2);
    }
  });

  it("holds back every call after the outer layer's throttle, with a SEP-3304-shaped error", async () => {
    const { callTool, calls } = scripted({ error: serverThrottle(60_000) });
    const call = honorThrottles(callTool);
    await expect(call(params("search"))).rejects.toBeInstanceOf(McpError);
    const error = await call(params("lookup")).catch((reason: unknown) => reason);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ name: "ThrottleCooldownError", layer: "server", code: -32023 });
    expect(isThrottleCooldownError(error)).toBe(true);
    expect((error as { data: { retryAfterMs: number } }).data.retryAfterMs).toBeGreaterThan(59_000);
    expect(readThrottle(error)).toMatchObject({ layer: "server", source: "cooldown" });
  });

  it("maps calls to limits by tool name: a tool that never hit the limit is not held back", async () => {
    const { callTool, calls } = scripted({ value: toolThrottle(60) }, { value: ok });
    const call = honorThrottles(callTool);
    await call(params("search"));
    await expect(call(params("lookup"))).resolves.toBe(ok);
    expect(calls).toHaveLength(2);
  });

  it("maps calls by the `callKey` option when given", async () => {
    const { callTool, calls } = scripted({ value: toolThrottle(60) }, { value: ok });
    const call = honorThrottles(callTool, {
      callKey: (p) =>
        `${(p as { name: string }).name}:${(p as { arguments: { mode: string } }).arguments.mode}`,
    });
    await call({ name: "search", arguments: { mode: "semantic" } });
    await expect(call({ name: "search", arguments: { mode: "keyword" } })).resolves.toBe(ok);
    expect(
      readThrottle(await call({ name: "search", arguments: { mode: "semantic" } })),
    ).toBeDefined();
    expect(calls).toHaveLength(2);
  });

  it("waits out the time left when it fits, then calls", async () => {
    const { callTool, calls } = scripted({ error: serverThrottle(40) }, { value: ok });
    const first = new AbortController();
    const { events, onEvent } = recorder();
    const call = honorThrottles(callTool, {
      onEvent: (event) => {
        onEvent(event);
        if (event.type === "throttle") first.abort("learned");
      },
    });
    // The first call learns the throttle and stops waiting; the cooldown keeps it.
    await expect(call(params(), { signal: first.signal })).rejects.toBe("learned");
    events.length = 0;
    await expect(call(params())).resolves.toBe(ok);
    expect(calls).toHaveLength(2);
    expect(events.map((event) => event.type)).toStrictEqual(["retry"]);
  });

  it("lets parallel calls go together again once a probe succeeds", async () => {
    let inFlight = 0;
    let most = 0;
    let first = true;
    const callTool = async (..._args: unknown[]) => {
      if (first) {
        first = false;
        return toolThrottle(0);
      }
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      return ok;
    };
    const call = honorThrottles(callTool, { maxAttempts: 0 });
    await call(params());
    await call(params());
    await Promise.all(Array.from({ length: 5 }, () => call(params())));
    expect(most).toBe(5);
  });

  it("remembers nothing with `cooldown: false`", async () => {
    const { callTool, calls } = scripted({ value: toolThrottle(60) });
    const call = honorThrottles(callTool, { cooldown: false });
    await call(params());
    await call(params());
    expect(calls).toHaveLength(2);
  });
});

describe("honorThrottles: events", () => {
  it("reports throttle, retry and cooldown-hit, with no message text, to onEvent and the diagnostics channels", async () => {
    const published: unknown[] = [];
    const listener = (message: unknown) => published.push(message);
    for (const name of Object.values(EVENT_CHANNELS)) subscribe(name, listener);
    try {
      const { callTool } = scripted({ error: serverThrottle(10) }, { value: toolThrottle(60) });
      const { events, onEvent } = recorder();
      const call = honorThrottles(callTool, { onEvent });
      await call(params());
      await call(params());
      expect(events).toMatchObject([
        {
          type: "throttle",
          source: "honorThrottles",
          limit: "mcp-server",
          status: 429,
          retryAfterMs: 10,
          delaySource: "json-rpc-retry-after-ms",
        },
        { type: "retry", source: "honorThrottles", limit: "mcp-server", attempt: 1 },
        {
          type: "throttle",
          limit: "search_rate_limit",
          retryAfterMs: 60_000,
          delaySource: "rate-limited-result",
        },
        { type: "cooldown-hit", limit: "search_rate_limit" },
      ]);
      // A host sees no upstream's status: only the server's own refusal carries one.
      expect(events[2]).not.toHaveProperty("status");
      expect(events[3]).not.toHaveProperty("status");
      expect(published).toStrictEqual(events);
      expect(JSON.stringify(events)).not.toContain("Slow down");
    } finally {
      for (const name of Object.values(EVENT_CHANNELS)) unsubscribe(name, listener);
    }
  });

  it("an onEvent that throws changes nothing", async () => {
    const { callTool } = scripted({ error: serverThrottle(5) }, { value: ok });
    const call = honorThrottles(callTool, {
      onEvent: () => {
        throw new Error("observer bug");
      },
    });
    await expect(call(params())).resolves.toBe(ok);
  });
});

describe("honorThrottles: options", () => {
  const callTool = async () => ok;
  it.each([
    [{ maxWaitMs: "10" }, TypeError, "`maxWaitMs`"],
    [{ maxWaitMs: -1 }, RangeError, "`maxWaitMs`"],
    [{ maxWaitMs: 2 ** 31 }, RangeError, "`maxWaitMs`"],
    [{ maxWaitMs: Number.NaN }, RangeError, "`maxWaitMs`"],
    [{ maxAttempts: 1.5 }, RangeError, "`maxAttempts`"],
    [{ maxAttempts: -1 }, RangeError, "`maxAttempts`"],
    [{ maxRetryAfterSeconds: Number.POSITIVE_INFINITY }, RangeError, "`maxRetryAfterSeconds`"],
    [{ cooldown: "yes" }, TypeError, "`cooldown`"],
    [{ callKey: "name" }, TypeError, "`callKey`"],
    [{ signal: new AbortController().signal }, TypeError, "`signal`"],
    [{ onEvent: "log" }, TypeError, "`onEvent`"],
    ["fast", TypeError, "`options`"],
  ])("rejects %j at construction, naming the option", (options, type, name) => {
    expect(() => honorThrottles(callTool, options as never)).toThrow(type);
    expect(() => honorThrottles(callTool, options as never)).toThrow(name);
  });

  it("accepts the longest timer there is", () => {
    expect(() => honorThrottles(callTool, { maxWaitMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it("rejects a callTool that is not a function", () => {
    expect(() => honorThrottles("callTool" as never)).toThrow("`callTool`");
  });

  it("never writes into the options it was given", () => {
    const options = Object.freeze({ maxWaitMs: 5 });
    expect(() => honorThrottles(callTool, options)).not.toThrow();
  });
});
