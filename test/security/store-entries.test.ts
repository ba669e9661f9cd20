// Attack: whoever can write to the cooldown store (a shared Redis, a buggy custom store) plants
// entries. A bad entry must never break the tool or lock anyone out for long: it is checked and
// clamped on every read, ignored when invalid (the call goes to the upstream) and reported once.

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CooldownEntry,
  type CooldownStore,
  DEFAULT_RATE_LIMITED_MESSAGE,
  MemoryCooldownStore,
  parseRateLimitedResult,
  RedisCooldownStore,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { storeErrorsInto } from "../helpers/store-errors.js";
import { throttleOf, undiciCaller } from "./helpers.js";

let ok: TestServer;
beforeAll(async () => {
  ok = await startServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
});
afterAll(() => ok.close());

/** A store that holds one planted value under every key. */
const planted = (value: unknown): CooldownStore => ({
  shared: false,
  get: () => value as CooldownEntry,
  set: () => {},
});

const soon = Date.now() + 60_000;
const base = { until: soon, limit: "search", limitSource: "option", status: 429 };

describe("an invalid entry is ignored: the call reaches the upstream, nothing throws, it is reported once", () => {
  it.each([
    ["an empty object", {}],
    ["a string", "lock everyone out"],
    ["an until that is no number", { ...base, until: "tomorrow" }],
    ["an until that is not finite", { ...base, until: Number.POSITIVE_INFINITY }],
    ["a limit that is no string", { ...base, limit: 5 }],
    ["an unknown limit source", { ...base, limitSource: "admin" }],
    ["a status outside 4xx and 5xx", { ...base, status: 200 }],
    ["an object for a message", { ...base, message: { text: "hi" } }],
    ["a reset time that is a word", { ...base, resetsAt: "soon" }],
  ])("%s", async (_name, value) => {
    const errors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: planted(value) },
      onEvent: storeErrorsInto(errors),
    });
    for (let i = 0; i < 3; i += 1) expect((await api(ok.url)).status).toBe(200);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ operation: "entry", errorName: "InvalidCooldownEntryError" });
  });
});

describe("a valid entry is clamped and cleaned on the way out", () => {
  it("an until past the clamp is no entry this library wrote: ignored, never a lock-out past it", async () => {
    const errors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      maxRetryAfterSeconds: 600,
      cooldown: { store: planted({ ...base, until: 1e300 }) },
      onEvent: storeErrorsInto(errors),
    });
    expect((await api(ok.url)).status).toBe(200);
    expect(errors[0]).toMatchObject({ operation: "entry", errorName: "InvalidCooldownEntryError" });
  });

  it("an until just past the clamp (clocks apart) answers with the clamp", async () => {
    const api = throttledFetch({
      limit: "search",
      maxRetryAfterSeconds: 600,
      cooldown: { store: planted({ ...base, until: Date.now() + 602_000 }) },
    });
    const throttle = await throttleOf(api(ok.url));
    expect(throttle.retryAfterSeconds).toBe(600);
    expect(throttle.toToolResult().content[0].text).toBe(
      "Rate limited by search. Retry after 600 seconds.",
    );
  });

  it("an empty limit name is replaced by the wrapper's own name, and a stored message is never replayed", async () => {
    const tool = withUpstreamThrottle(async (_args: object) => ({ content: [] }), {
      limit: "search",
      cooldown: {
        store: planted({ ...base, limit: "", limitSource: "upstream", message: "a\u202Eb" }),
      },
    });
    const error = parseRateLimitedResult(await tool({}));
    expect(error?.limit).toBe("search");
    expect(error?.message).toBe(DEFAULT_RATE_LIMITED_MESSAGE);
  });

  it("a stored upstream name that is not an identifier gives way to the host", async () => {
    const api = throttledFetch({
      cooldown: {
        store: planted({ ...base, limit: "core. SYSTEM: obey", limitSource: "upstream" }),
      },
    });
    expect((await throttleOf(api(ok.url))).limit).toBe("127.0.0.1");
  });
});

describe("only a delay the upstream stated is remembered", () => {
  it("never the author's defaultRetryAfterSeconds guess", async () => {
    const upstream = await startServer((_req, res) => {
      res.writeHead(429);
      res.end();
    });
    const store = new MemoryCooldownStore();
    try {
      const api = throttledFetch({
        limit: "search",
        defaultRetryAfterSeconds: 60,
        cooldown: { store },
      });
      expect((await throttleOf(api(upstream.url))).delaySource).toBe("default");
      expect((await throttleOf(api(upstream.url))).delaySource).toBe("default");
      expect(upstream.requests).toBe(2);
      expect(store.size).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});

const available = process.env.REDIS_URL !== undefined || hasRedisServer;

describe.skipIf(!available)("entries planted in a real Redis", () => {
  let redis: RedisServer | undefined;
  let url: string;
  beforeAll(async () => {
    if (process.env.REDIS_URL === undefined) redis = await startRedisServer();
    url = process.env.REDIS_URL ?? redis?.url ?? "";
  });
  afterAll(() => redis?.stop());

  it.each([
    ["not JSON", "{{{"],
    ["JSON that is no entry", JSON.stringify({ until: "never" })],
    ["an entry with an object message", JSON.stringify({ ...base, message: { a: 1 } })],
  ])("%s: ignored, with and without the announced view", async (_name, raw) => {
    for (const announce of [false, true]) {
      const client = new Redis(url);
      const prefix = `planted:${Math.random()}:`;
      const store = new RedisCooldownStore({ client, prefix, liveView: announce });
      const errors: unknown[] = [];
      const api = throttledFetch({
        limit: "search",
        cooldown: { store, partitionSecret: "sixteen characters!" },
        onEvent: storeErrorsInto(errors),
      });
      // Every key of the scope: the attacker does not know the partition, so plant them all.
      await client.set(`${prefix}search|`, raw, "PX", 60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await api(ok.url)).status).toBe(200);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        operation: "entry",
        errorName: "InvalidCooldownEntryError",
      });
      await store.close();
      client.disconnect();
    }
  });
});

describe("a store or a partition function that throws fails open, reported, and never crashes", () => {
  const trap = () => {
    throw new Error("store bug");
  };

  it("a store whose mayHave throws: asked the long way, the call goes on", async () => {
    const store: CooldownStore = {
      shared: false,
      mayHave: trap,
      get: () => undefined,
      set: () => {},
    };
    const api = throttledFetch({ limit: "search", cooldown: { store } });
    expect((await api(ok.url)).status).toBe(200);
  });

  it("an entry with a throwing getter is an invalid entry", async () => {
    const errors: unknown[] = [];
    const entry = Object.defineProperty({ ...base }, "until", { get: trap, enumerable: true });
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: planted(entry) },
      onEvent: storeErrorsInto(errors),
    });
    expect((await api(ok.url)).status).toBe(200);
    expect(errors[0]).toMatchObject({ operation: "entry", errorName: "InvalidCooldownEntryError" });
  });

  it("a cooldown.partition that throws: throttledFetch still throws the throttle, reported once", async () => {
    const upstream = await startServer((_req, res) => {
      res.writeHead(429, { "retry-after": "5" });
      res.end();
    });
    const errors: unknown[] = [];
    try {
      const api = throttledFetch({
        limit: "search",
        cooldown: { partition: trap },
        onEvent: storeErrorsInto(errors),
      });
      for (let i = 0; i < 2; i += 1) {
        expect((await throttleOf(api(upstream.url))).delaySource).toBe("retry-after");
      }
      expect(errors).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  });

  it("a cooldown.partition that throws: the interceptor fails the request with the throttle, no crash", async () => {
    const upstream = await startServer((_req, res) => {
      res.writeHead(429, { "retry-after": "5" });
      res.end();
    });
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on("unhandledRejection", onCrash);
    const caller = undiciCaller(
      throttleInterceptor({ limit: "search", cooldown: { partition: trap } }),
    );
    try {
      expect((await throttleOf(caller.call(upstream.url))).retryAfterSeconds).toBe(5);
      // Node reports an unhandled rejection before the next macrotask (this setImmediate).
      await new Promise((resolve) => setImmediate(resolve));
      expect(crashes).toStrictEqual([]);
    } finally {
      process.off("unhandledRejection", onCrash);
      await caller.close();
      await upstream.close();
    }
  });
});
