// A store a network away must never be worse than no cooldown: with 50, 150 or 300 ms between the
// isolate and the store, a call waits for the store's answer (and a throttle another isolate saw
// is honoured), instead of waiting, timing out and calling the upstream anyway. Time comes from
// fake timers: the store's client answers after its latency, the guard's timeout is a timer.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type CooldownStore,
  type HttpRedisClient,
  HttpRedisCooldownStore,
  throttledFetch,
} from "../../src/index.js";
import { storeErrorsInto } from "../helpers/store-errors.js";

const partitionSecret = "a-secret-of-at-least-16-characters";

/** A Redis over HTTP `latencyMs` away: one map, answers after the latency. */
function remote(latencyMs: number) {
  const data = new Map<string, string>();
  let reads = 0;
  const later = <T>(value: () => T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value()), latencyMs));
  const client: HttpRedisClient = {
    get: (key) => {
      reads += 1;
      return later(() => data.get(key) ?? null);
    },
    set: (key, value) => later(() => void data.set(key, value)),
  };
  return {
    client,
    get reads() {
      return reads;
    },
  };
}

/** An upstream that throttles every call (canned), counting them. */
function upstream() {
  let requests = 0;
  const fetch = (async () => {
    requests += 1;
    return new Response("{}", { status: 429, headers: { "retry-after": "60" } });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    get requests() {
      return requests;
    },
  };
}

function guard(
  store: CooldownStore,
  fetch: typeof globalThis.fetch,
  errors: unknown[],
  extra = {},
) {
  return throttledFetch({
    limit: "search",
    fetch,
    cooldown: { store, partitionSecret, ...extra },
    onEvent: storeErrorsInto(errors),
  });
}

/** Runs a guarded call to its end while the fake clock moves; what it threw, or its status. */
async function settle(call: Promise<Response>): Promise<unknown> {
  const outcome = call.then(
    (response) => response.status,
    (error: unknown) => error,
  );
  await vi.advanceTimersByTimeAsync(5000);
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe.each([50, 150, 300])(
  "a Redis over HTTP %i ms away, with the default timeouts",
  (latencyMs) => {
    it("answers a second isolate from the throttle the first one saw, with no store error", async () => {
      const store = remote(latencyMs);
      const api = upstream();
      const errors: unknown[] = [];
      const first = guard(new HttpRedisCooldownStore({ client: store.client }), api.fetch, errors);
      expect(await settle(first("https://api.example/search"))).toMatchObject({
        delaySource: "retry-after",
      });
      const second = guard(new HttpRedisCooldownStore({ client: store.client }), api.fetch, errors);
      expect(await settle(second("https://api.example/search"))).toMatchObject({
        delaySource: "cooldown",
      });
      expect(api.requests).toBe(1);
      expect(errors).toEqual([]);
    });
  },
);

describe("a store slower than its timeout", () => {
  it("is waited for once, then skipped at once (no second wait) until a probe finds it back", async () => {
    const store = remote(2000);
    const api = upstream();
    const errors: unknown[] = [];
    const call = guard(new HttpRedisCooldownStore({ client: store.client }), api.fetch, errors);
    const first = call("https://api.example/search").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await first).toMatchObject({ delaySource: "retry-after" });
    expect(errors).toHaveLength(1);
    // Within the breaker's backoff: no read, no wait (no timer needs to fire for the answer). Other
    // callers: the first caller's own throttle is answered from memory, in front of the store.
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const second = call("https://api.example/search", as("bob")).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(await second).toMatchObject({ delaySource: "retry-after" });
    expect(store.reads).toBe(1);
    // After the backoff, one probe asks again.
    await vi.advanceTimersByTimeAsync(600);
    const probe = call("https://api.example/search", as("carol")).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    await probe;
    expect(store.reads).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it("takes `cooldown.storeTimeoutMs` over the store's own timeout", async () => {
    const store = remote(300);
    const api = upstream();
    const errors: unknown[] = [];
    const options = { storeTimeoutMs: 100 };
    const first = guard(
      new HttpRedisCooldownStore({ client: store.client }),
      api.fetch,
      errors,
      options,
    );
    const done = first("https://api.example/search").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(99);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toMatchObject([{ type: "store-error", operation: "get" }]);
    await vi.advanceTimersByTimeAsync(5000);
    await done;
  });

  it("ignores a declared timeout that is no timer, and waits the guard's 250 ms", async () => {
    const store = remote(300);
    const errors: unknown[] = [];
    const odd: CooldownStore = {
      timeoutMs: Number.NaN,
      get: (key) => store.client.get(key) as never,
      set: () => {},
    };
    const call = guard(odd, upstream().fetch, errors);
    const done = call("https://api.example/search").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(249);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toMatchObject([{ type: "store-error", operation: "get" }]);
    await vi.advanceTimersByTimeAsync(5000);
    await done;
  });
});
