// A Redis that refuses writes (full under `maxmemory`, with `noeviction` as the docs advise, or a
// write paused) against a RedisCooldownStore, with a real redis-server and the clients people
// use: a throttle is still announced to every live view (Redis still takes PUBLISH), an error
// answer is not taken for an outage, and the process's own view keeps answering after a write
// that failed or was slow.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CooldownEntry, RedisCooldownStore, throttledFetch } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { storeErrorsInto } from "../helpers/store-errors.js";
import { type ClientKind, connect, type TestClient } from "./clients.js";

const SECRET = "sixteen characters at least";
const KINDS: ClientKind[] = ["ioredis", "node-redis 6", "node-redis 4"];

let redis: RedisServer;
let admin: TestClient;
let upstream: TestServer;
let upstreamCalls = 0;

beforeAll(async () => {
  if (!hasRedisServer) return;
  redis = await startRedisServer();
  admin = await connect("ioredis", redis.url);
  upstream = await startServer((_req, res) => {
    upstreamCalls += 1;
    res.writeHead(429, { "retry-after": "30" });
    res.end();
  });
});

afterAll(async () => {
  await admin?.close();
  await upstream?.close();
  await redis?.stop();
});

const entry = (): CooldownEntry => ({
  until: Date.now() + 30_000,
  limit: "search",
  limitSource: "option",
  status: 429,
});

async function replicas(kind: ClientKind, prefix: string) {
  const clients = [await connect(kind, redis.url), await connect(kind, redis.url)];
  const errors: unknown[][] = [[], []];
  const stores = clients.map((client) => new RedisCooldownStore({ client: client.client, prefix }));
  // A store's own failures are heard through the onEvent of a wrapper using it.
  const listeners = stores.map((store, i) =>
    throttledFetch({
      cooldown: { store, partitionSecret: SECRET },
      onEvent: storeErrorsInto(errors[i] ?? []),
    }),
  );
  expect(await eventually(() => stores.every((store) => store.synced), 5_000)).toBe(true);
  return {
    stores: stores as [RedisCooldownStore, RedisCooldownStore],
    errors,
    listeners,
    close: async () => {
      for (const store of stores) await store.close();
      for (const client of clients) await client.close();
    },
  };
}

describe.skipIf(!hasRedisServer).each(KINDS)("a Redis that refuses writes, with %s", (kind) => {
  it("a write refused for memory (noeviction) is still announced, and Redis is not taken for down", async () => {
    const { stores, errors, close } = await replicas(kind, `refused:${Math.random()}:`);
    const [one, two] = stores;
    await admin.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
    await admin.command("CONFIG", "SET", "maxmemory", "1");
    try {
      await expect(one.set("search|u1", entry(), 30_000)).resolves.toBeUndefined();
      expect(await eventually(() => two.mayHave("search"), 2_000)).toBe(true);
      expect((two.get("search|u1") as CooldownEntry | undefined)?.limit).toBe("search");
      // An answer, not an outage: both views stay live, and the refusal is told once.
      await one.set("search|u2", entry(), 30_000);
      expect(one.synced && two.synced).toBe(true);
      expect(errors[0]).toMatchObject([
        { type: "store-error", source: "RedisCooldownStore", operation: "sync" },
      ]);
    } finally {
      await admin.command("CONFIG", "SET", "maxmemory", "0");
    }
    await close();
  });

  it("a call on another replica, after a throttle whose write Redis refused, does not reach the upstream", async () => {
    const { stores, close } = await replicas(kind, `refused-call:${Math.random()}:`);
    const [api, other] = stores.map((store) =>
      throttledFetch({ limit: "search", cooldown: { store, partitionSecret: SECRET } }),
    ) as [typeof fetch, typeof fetch];
    await admin.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
    await admin.command("CONFIG", "SET", "maxmemory", "1");
    const before = upstreamCalls;
    const headers = { authorization: "Bearer caller-one" };
    try {
      await expect(api(upstream.url, { headers })).rejects.toMatchObject({
        delaySource: "retry-after",
      });
      expect(await eventually(() => stores[1].mayHave("search"), 2_000)).toBe(true);
      await expect(other(upstream.url, { headers })).rejects.toMatchObject({
        delaySource: "cooldown",
      });
      expect(upstreamCalls - before).toBe(1);
    } finally {
      await admin.command("CONFIG", "SET", "maxmemory", "0");
    }
    await close();
  });

  it("after a write that was too slow, the replica's own view still answers for the throttle it saw", async () => {
    const { stores, close } = await replicas(kind, `slow-write:${Math.random()}:`);
    const storeErrors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: stores[0], partitionSecret: SECRET },
      onEvent: storeErrorsInto(storeErrors),
    });
    const before = upstreamCalls;
    const headers = { authorization: "Bearer caller-two" };
    // Writes wait (PUBLISH too), reads go on: the write outlasts the guard's storeTimeoutMs.
    await admin.command("CLIENT", "PAUSE", "1500", "WRITE");
    try {
      await expect(api(upstream.url, { headers })).rejects.toMatchObject({
        delaySource: "retry-after",
      });
      expect(await eventually(() => storeErrors.length > 0, 1_000)).toBe(true);
      await expect(api(upstream.url, { headers })).rejects.toMatchObject({
        delaySource: "cooldown",
      });
      expect(upstreamCalls - before).toBe(1);
    } finally {
      await admin.command("CLIENT", "UNPAUSE");
    }
    await close();
  });

  it("a throttle seen while Redis was known down is written once Redis answers again", async () => {
    const prefix = `held:${Math.random()}:`;
    const clients = [await connect(kind, redis.url), await connect(kind, redis.url)];
    const [seer, reader] = clients.map(
      (client) => new RedisCooldownStore({ client: client.client, prefix, liveView: false }),
    ) as [RedisCooldownStore, RedisCooldownStore];
    await admin.command("CLIENT", "PAUSE", "800", "ALL");
    // A lookup unanswered within 200 ms: Redis is known down, the write is not waited for.
    await expect(seer.get("search|u0")).rejects.toThrow(/no answer/);
    await seer.set("search|u3", entry(), 30_000);
    const written = async () =>
      (await Promise.resolve(reader.get("search|u3")).catch(() => undefined)) !== undefined;
    let seen = false;
    for (let i = 0; i < 50 && !seen; i += 1) {
      seen = await written();
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toBe(true);
    for (const store of [seer, reader]) await store.close();
    for (const client of clients) await client.close();
  });
});
