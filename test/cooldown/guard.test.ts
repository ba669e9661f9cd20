// The guard around a store: what one caller's throttle answers another, what a failing store
// costs, and how often it is reported.

import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import {
  type CooldownEntry,
  type CooldownStore,
  MemoryCooldownStore,
  parseRateLimitedResult,
  throttledFetch,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { storeErrorsInto } from "../helpers/store-errors.js";
import { rejection } from "../helpers/throttle.js";

let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function upstreamSaying(message: string, status = 429) {
  upstream = await startServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json", "retry-after": "30" });
    res.end(JSON.stringify({ error: { message } }));
  });
  return upstream.url;
}

async function okUpstream() {
  upstream = await startServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
  return upstream.url;
}

describe("a cooldown shared by a partition never replays one caller's upstream message", () => {
  it("two callers of one server-wide upstream key: B reads the limit and the time left, not A's text", async () => {
    const url = await upstreamSaying("Too many searches; last: alice divorce lawyer near me");
    const api = throttledFetch({ limit: "search" });
    // One upstream key for the whole server: every MCP caller shares its partition.
    const tool = withUpstreamThrottle(
      async (_args: { q: string }) => {
        await api(url, { headers: { authorization: "Bearer server-wide-key" } });
        return { content: [] };
      },
      { limit: "search", cooldown: { store: new MemoryCooldownStore(), partition: () => "all" } },
    );
    const alice = parseRateLimitedResult(await tool({ q: "alice divorce lawyer near me" }));
    expect(alice?.message).toContain("alice divorce lawyer");
    const bobResult = await tool({ q: "weather" });
    const bob = parseRateLimitedResult(bobResult);
    expect(bob).toMatchObject({ limit: "search" });
    expect(bob?.retry_after_seconds).toBeGreaterThan(0);
    expect(JSON.stringify(bobResult)).not.toMatch(/alice|divorce|searches/);
    expect(upstream?.requests).toBe(1);
  });

  it("nothing of the message is written to the store", async () => {
    const url = await upstreamSaying("Quota for alice@corp.example exhausted");
    const written: CooldownEntry[] = [];
    const store: CooldownStore = {
      shared: false,
      get: () => undefined,
      set: (_key, entry) => void written.push(entry),
    };
    await rejection(throttledFetch({ limit: "search", cooldown: { store } })(url));
    expect(written).toHaveLength(1);
    expect(JSON.stringify(written[0])).not.toMatch(/alice|Quota/);
  });
});

describe("store failures, told to onEvent", () => {
  it("an async hook that rejects changes nothing: no unhandled rejection, the call goes on", async () => {
    const url = await okUpstream();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const broken: CooldownStore = {
        shared: false,
        get: () => Promise.reject(new Error("store down")),
        set: () => Promise.reject(new Error("store down")),
      };
      const api = throttledFetch({
        limit: "search",
        cooldown: { store: broken },
        onEvent: async () => {
          throw new Error("the hook's own bug");
        },
      });
      expect((await api(url)).status).toBe(200);
      // Node reports an unhandled rejection once the microtasks drain, before the next
      // macrotask: by the time a setImmediate runs it would have been heard.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("is told once per outage, however many answers the store gives from memory in between", async () => {
    const url = await okUpstream();
    const errors: unknown[] = [];
    let calls = 0;
    // A store with a view: answers at once, but for some lookups it must ask its backend, which is down.
    const flaky: CooldownStore = {
      shared: false,
      get: () => {
        calls += 1;
        return calls % 2 === 0 ? undefined : Promise.reject(new Error("backend down"));
      },
      set: () => {},
    };
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: flaky },
      onEvent: storeErrorsInto(errors),
    });
    for (let i = 0; i < 20; i += 1) expect((await api(url)).status).toBe(200);
    expect(errors).toHaveLength(1);
  });
});

describe("a store known to be down is skipped at once (the breaker)", () => {
  it("after one slow answer, calls stop waiting; one probe later finds it back", async () => {
    const url = await okUpstream();
    let asked = 0;
    let hanging = true;
    const store: CooldownStore = {
      shared: false,
      get: () => {
        asked += 1;
        firstAsked();
        return hanging ? new Promise(() => {}) : Promise.resolve(undefined);
      },
      set: () => {},
    };
    let firstAsked = () => {};
    const firstAsk = new Promise<void>((resolve) => {
      firstAsked = resolve;
    });
    const errors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      cooldown: { store, storeTimeoutMs: 400 },
      onEvent: storeErrorsInto(errors),
    });
    // The store's timeout and the breaker's backoff run on simulated time; the upstream is real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const first = api(url);
    await firstAsk;
    await vi.advanceTimersByTimeAsync(399);
    expect(errors).toHaveLength(0); // still waiting on the hanging store
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toHaveLength(1); // gave up on it after 400 ms
    await first;
    // Twenty calls without asking the store, so without its 400 ms wait: they end with the
    // simulated clock standing still.
    await Promise.all(Array.from({ length: 20 }, () => api(url)));
    expect(asked).toBe(1);
    hanging = false;
    await vi.advanceTimersByTimeAsync(499);
    await api(url); // 1 ms short of the 500 ms backoff: not yet a probe
    expect(asked).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await api(url); // the probe
    await Promise.all(Array.from({ length: 5 }, () => api(url)));
    expect(asked).toBe(7);
    expect(errors).toHaveLength(1);
  });
});

describe("MemoryCooldownStore", () => {
  it("keeps a long cooldown on one host while 20,000 other hosts throttle (maxEntries 50,000)", () => {
    let now = 1_000;
    const store = new MemoryCooldownStore({ maxEntries: 50_000, now: () => now });
    const entry = (until: number): CooldownEntry => ({
      until,
      limit: "x",
      limitSource: "host",
      status: 429,
    });
    store.set("a.example|", entry(now + 3_600_000), 3_600_000);
    for (let i = 0; i < 20_000; i += 1)
      store.set(`host-${i}.example|`, entry(now + 60_000), 60_000);
    now += 1_000;
    expect(store.mayHave("a.example")).toBe(true);
    expect(store.get("a.example|")?.limit).toBe("x");
  });

  it.each([
    ["a string", "x", /`options` of MemoryCooldownStore must be an object/],
    ["null", null, /`options` of MemoryCooldownStore must be an object/],
    ["maxEntries: '10'", { maxEntries: "10" }, /`maxEntries` must be an integer/],
    ["maxEntries: 1.5", { maxEntries: 1.5 }, /`maxEntries` must be an integer/],
  ])("rejects bad options (%s), naming them", (_name, options, message) => {
    expect(() => new MemoryCooldownStore(options as never)).toThrow(message);
  });
});

describe("with retry on, the throttle is remembered before the retry waits", () => {
  it("50 callers of one partition during a 1 s penalty: 1 request and 1 retry", async () => {
    // The penalty (the upstream reads `Date`), the retry's wait and the cooldown run on simulated
    // time; the requests are real loopback HTTP.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let penaltyEnds = 0;
    upstream = await startServer((_req, res) => {
      const now = Date.now();
      if (penaltyEnds === 0) penaltyEnds = now + 1000;
      if (now < penaltyEnds) {
        res.writeHead(429, { "retry-after-ms": String(penaltyEnds - now) });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    let throttled: () => void = () => {};
    const seen = new Promise<void>((resolve) => {
      throttled = resolve;
    });
    const api = throttledFetch({
      limit: "search",
      retry: { maxWaitMs: 2000 },
      cooldown: { store: new MemoryCooldownStore() },
      onEvent: (event) => {
        if (event.type === "throttle") throttled();
      },
    });
    const url = upstream.url;
    const first = api(url);
    // The others come once the first caller met the throttle (not after a guessed sleep).
    await seen;
    const others = await Promise.allSettled(Array.from({ length: 49 }, () => api(url)));
    expect(others.every((outcome) => outcome.status === "rejected")).toBe(true);
    expect(upstream.requests).toBe(1);
    await vi.advanceTimersByTimeAsync(1100); // the 1 s wait, and at most 100 ms of jitter
    expect((await first).status).toBe(200);
    expect(upstream.requests).toBe(2);
  });
});
