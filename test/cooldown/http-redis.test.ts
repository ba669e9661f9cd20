// HttpRedisCooldownStore with the real `@upstash/redis` client, against a real redis-server behind
// a local bridge of Upstash's REST protocol (test/helpers/rest-redis.ts says what it covers).
// Each store instance stands for one isolate or function instance: nothing in memory is shared.

import { Redis } from "@upstash/redis";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpRedisCooldownStore, throttledFetch } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { type RestRedisBridge, startRestRedisBridge } from "../helpers/rest-redis.js";
import { storeErrorsInto } from "../helpers/store-errors.js";

const available = process.env.REDIS_URL !== undefined || hasRedisServer;
const partitionSecret = "a-secret-of-at-least-16-characters";

let redis: RedisServer | undefined;
let bridge: RestRedisBridge;
let upstream: TestServer;
let throttling = true;

beforeAll(async () => {
  if (!available) return;
  if (process.env.REDIS_URL === undefined) redis = await startRedisServer();
  bridge = await startRestRedisBridge(process.env.REDIS_URL ?? redis?.url ?? "");
  upstream = await startServer((_req, res) => {
    if (!throttling) return void res.writeHead(200).end("ok");
    res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
    res.end(JSON.stringify({ message: "slow down" }));
  });
});

afterAll(async () => {
  await upstream?.close();
  await bridge?.close();
  await redis?.stop();
});

let prefixes = 0;
/** One isolate: its own client and store, under the test's prefix. */
function isolate(prefix: string, url = bridge.url) {
  const client = new Redis({ url, token: bridge.token });
  return new HttpRedisCooldownStore({ client, prefix });
}
const freshPrefix = () => {
  prefixes += 1;
  return `http:${process.pid}:${prefixes}:`;
};

function guarded(store: HttpRedisCooldownStore, errors: unknown[] = []) {
  return throttledFetch({
    limit: "search",
    cooldown: { store, partitionSecret },
    onEvent: storeErrorsInto(errors),
  });
}
const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe.skipIf(!available)("HttpRedisCooldownStore over @upstash/redis", () => {
  it("shares a throttle between two isolates: the second never reaches the upstream", async () => {
    throttling = true;
    const prefix = freshPrefix();
    const before = upstream.requests;
    await expect(guarded(isolate(prefix))(upstream.url, as("alice"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    const other = guarded(isolate(prefix));
    await expect(other(upstream.url, as("alice"))).rejects.toMatchObject({
      delaySource: "cooldown",
      limit: "search",
    });
    expect(upstream.requests - before).toBe(1);
    const keys = (await bridge.command("KEYS", `${prefix}*`)) as string[];
    expect(keys).toHaveLength(1);
    const pttl = Number(await bridge.command("PTTL", keys[0] as string));
    expect(pttl).toBeGreaterThan(25_000);
    expect(pttl).toBeLessThanOrEqual(30_000);
    // No upstream message is stored: the partition may hold many callers.
    expect(String(await bridge.command("GET", keys[0] as string))).not.toContain("slow down");
  });

  it("keeps two callers apart: bob's call still goes to the upstream", async () => {
    throttling = true;
    const prefix = freshPrefix();
    const before = upstream.requests;
    await expect(guarded(isolate(prefix))(upstream.url, as("alice"))).rejects.toBeDefined();
    await expect(guarded(isolate(prefix))(upstream.url, as("bob"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    expect(upstream.requests - before).toBe(2);
  });

  it("asks Redis once per call while nothing is known, and not at all for a penalty it has read", async () => {
    throttling = false;
    const prefix = freshPrefix();
    const api = guarded(isolate(prefix));
    let sent = bridge.commands;
    for (let i = 0; i < 3; i += 1) expect((await api(upstream.url, as("carol"))).status).toBe(200);
    expect(bridge.commands - sent).toBe(3);
    throttling = true;
    await expect(guarded(isolate(prefix))(upstream.url, as("carol"))).rejects.toBeDefined();
    sent = bridge.commands;
    const before = upstream.requests;
    for (let i = 0; i < 3; i += 1) {
      await expect(api(upstream.url, as("carol"))).rejects.toMatchObject({
        delaySource: "cooldown",
      });
    }
    expect(bridge.commands - sent).toBe(1);
    expect(upstream.requests).toBe(before);
  });

  it("ignores an entry planted in Redis (text, or past the clamp) and reports it once", async () => {
    throttling = false;
    const prefix = freshPrefix();
    const errors: unknown[] = [];
    const api = guarded(isolate(prefix), errors);
    // This caller's key comes from a real write (another isolate's throttle), then is overwritten.
    throttling = true;
    await expect(guarded(isolate(prefix))(upstream.url, as("dave"))).rejects.toBeDefined();
    throttling = false;
    const key = ((await bridge.command("KEYS", `${prefix}search|*`)) as string[])[0] as string;
    const far = {
      until: Date.now() + 10 * 86_400_000,
      limit: "search",
      limitSource: "option",
      status: 429,
    };
    for (const planted of ["<script>", JSON.stringify(far)]) {
      await bridge.command("SET", key, planted, "PX", "60000");
      expect((await api(upstream.url, as("dave"))).status).toBe(200);
    }
    expect(errors).toMatchObject([{ operation: "entry", errorName: "InvalidCooldownEntryError" }]);
  });

  it("fails open when Redis cannot be reached: the call goes to the upstream, reported once", async () => {
    throttling = false;
    const gone = await startServer(() => {});
    const url = gone.url;
    await gone.close();
    const errors: unknown[] = [];
    const api = guarded(isolate(freshPrefix(), url), errors);
    const before = upstream.requests;
    for (let i = 0; i < 3; i += 1) expect((await api(upstream.url, as("erin"))).status).toBe(200);
    expect(upstream.requests - before).toBe(3);
    expect(errors).toHaveLength(1);
  });
});

describe("HttpRedisCooldownStore with whatever a client answers", () => {
  it("never fails a call, and never answers one from a value that is not an entry", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.anything(), fc.json()), async (answer) => {
        const client = { get: async () => answer, set: async () => "OK" };
        const api = throttledFetch({
          limit: "search",
          fetch: (async () => new Response("ok")) as typeof fetch,
          cooldown: { store: new HttpRedisCooldownStore({ client }), partitionSecret },
        });
        for (let i = 0; i < 2; i += 1) expect((await api("https://api.example/")).status).toBe(200);
      }),
      { numRuns: 300 },
    );
  });
});

describe("HttpRedisCooldownStore and a value far longer than any entry", () => {
  it("ignores it unparsed, and reports it, even when it is shaped like an entry", async () => {
    // A co-tenant of the Redis planting megabytes under a key: every call with nothing known
    // would parse them; no entry this package writes is near 4 KiB.
    const padded = JSON.stringify({
      until: Date.now() + 30_000,
      limit: "search",
      limitSource: "option",
      status: 429,
      pad: "x".repeat(1 << 20),
    });
    const client = { get: async () => padded, set: async () => "OK" };
    const errors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      fetch: (async () => new Response("ok")) as typeof fetch,
      cooldown: {
        store: new HttpRedisCooldownStore({ client, now: Date.now }),
        partitionSecret,
      },
      onEvent: storeErrorsInto(errors),
    });
    expect((await api("https://api.example/")).status).toBe(200);
    expect(errors[0]).toMatchObject({ operation: "entry", errorName: "InvalidCooldownEntryError" });
  });
});

describe("HttpRedisCooldownStore options", () => {
  const client = { get: async () => null, set: async () => "OK" };

  it("declares a wait above a network round trip, which the guard takes as its default", () => {
    expect(new HttpRedisCooldownStore({ client }).timeoutMs).toBe(1000);
    expect(new HttpRedisCooldownStore({ client, timeoutMs: 3000 }).timeoutMs).toBe(3000);
  });

  it("rejects bad options, naming them", () => {
    expect(() => new HttpRedisCooldownStore(undefined as never)).toThrow(TypeError);
    expect(() => new HttpRedisCooldownStore({ client: {} as never })).toThrow(/`client`/);
    expect(() => new HttpRedisCooldownStore({ client, prefix: "" })).toThrow(/`prefix`/);
    expect(() => new HttpRedisCooldownStore({ client, timeoutMs: -1 })).toThrow(/`timeoutMs`/);
    expect(() => new HttpRedisCooldownStore({ client, maxKnownEntries: 1 })).toThrow(
      /`maxKnownEntries`/,
    );
    expect(() => new HttpRedisCooldownStore({ client, now: 5 as never })).toThrow(/`now`/);
  });

  it("is shared: the wrappers need a partitionSecret", () => {
    const store = new HttpRedisCooldownStore({ client });
    expect(() => throttledFetch({ cooldown: { store } })).toThrow(/partitionSecret/);
  });
});
