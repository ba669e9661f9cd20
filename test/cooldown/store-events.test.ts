// A store's own failures (here a write a full Redis refused, which no guarded call sees fail:
// the throttle was still announced) reach the `onEvent` of every wrapper using the store, as
// the same `store-error` event the store's diagnostics channel carries.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenToStore, storeEventHook } from "../../src/cooldown/store-events.js";
import {
  EVENT_CHANNELS,
  RedisCooldownStore,
  type ThrottleEvent,
  throttledFetch,
} from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { connect, type TestClient } from "./clients.js";

const SECRET = "sixteen characters at least";

let redis: RedisServer;
let admin: TestClient;
let upstream: TestServer;

beforeAll(async () => {
  if (!hasRedisServer) return;
  redis = await startRedisServer();
  admin = await connect("ioredis", redis.url);
  upstream = await startServer((_req, res) => {
    res.writeHead(429, { "retry-after": "30" });
    res.end();
  });
});

afterAll(async () => {
  await admin?.close();
  await upstream?.close();
  await redis?.stop();
});

const storeErrors = (events: ThrottleEvent[]) =>
  events.filter((event) => event.type === "store-error");

describe.skipIf(!hasRedisServer)("a store's own failures", () => {
  it("reach the onEvent of every wrapper using the store, as the channel's event", async () => {
    const client = await connect("ioredis", redis.url);
    const store = new RedisCooldownStore({ client: client.client, prefix: `ev:${Math.random()}:` });
    expect(await eventually(() => store.synced, 5_000)).toBe(true);
    const first: ThrottleEvent[] = [];
    const second: ThrottleEvent[] = [];
    const onChannel: ThrottleEvent[] = [];
    const cooldown = { store, partitionSecret: SECRET };
    const search = throttledFetch({ limit: "search", cooldown, onEvent: (e) => first.push(e) });
    throttledFetch({ limit: "other", cooldown, onEvent: (e) => second.push(e) });
    const listener = (message: unknown) => onChannel.push(message as ThrottleEvent);
    subscribe(EVENT_CHANNELS["store-error"], listener);
    await admin.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
    await admin.command("CONFIG", "SET", "maxmemory", "1");
    try {
      await search(`${upstream.url}/search`).catch(() => {});
      expect(await eventually(() => storeErrors(second).length > 0, 2_000)).toBe(true);
      const told = { type: "store-error", source: "RedisCooldownStore", operation: "sync" };
      expect(storeErrors(first)).toMatchObject([told]);
      expect(storeErrors(second)).toStrictEqual(storeErrors(first));
      expect(onChannel).toStrictEqual(storeErrors(first));
    } finally {
      unsubscribe(EVENT_CHANNELS["store-error"], listener);
      await admin.command("CONFIG", "SET", "maxmemory", "0");
      await store.close();
      await client.close();
    }
  });
});

describe("an invalid store entry", () => {
  it("reaches the wrapper's onEvent as a store-error named InvalidCooldownEntryError", async () => {
    const events: ThrottleEvent[] = [];
    // A store handing back garbage, as a shared store someone else writes to may.
    const store = { shared: false, get: () => ({ until: "soon" }) as never, set: () => {} };
    const search = throttledFetch({
      limit: "search",
      cooldown: { store, partitionSecret: SECRET },
      onEvent: (event) => events.push(event),
    });
    const upstreamOk = await startServer((_req, res) => res.end("ok"));
    try {
      expect((await search(upstreamOk.url)).status).toBe(200);
    } finally {
      await upstreamOk.close();
    }
    expect(storeErrors(events)).toMatchObject([
      { operation: "entry", errorName: "InvalidCooldownEntryError" },
    ]);
  });
});

describe("the hook a store reports its own failures to", () => {
  const event: ThrottleEvent = {
    type: "store-error",
    source: "RedisCooldownStore",
    operation: "sync",
    errorName: "Error",
  };

  it("tells each wrapper's hook once, past one that throws", () => {
    const store = {};
    const heard: unknown[] = [];
    const shared = (e: ThrottleEvent) => void heard.push(e);
    listenToStore(store, () => {
      throw new Error("a hook that throws");
    });
    listenToStore(store, shared);
    listenToStore(store, shared);
    storeEventHook(store)(event);
    expect(heard).toStrictEqual([event]);
  });

  it("tells no wrapper of another store", () => {
    const heard: unknown[] = [];
    listenToStore({}, (e) => void heard.push(e));
    storeEventHook({})(event);
    expect(heard).toStrictEqual([]);
  });
});
