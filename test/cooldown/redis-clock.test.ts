// The clocks of a RedisCooldownStore, driven by the test through its `now` option (the wall
// clock the replicas share): ends go to Redis on the wall clock as it is when they are written
// (a replica whose clock NTP corrected after it started agrees with the others from then on),
// and a step of that clock changes no cooldown already in the view.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monotonicNow } from "../../src/cooldown/clock.js";
import { type CooldownEntry, RedisCooldownStore } from "../../src/index.js";
import { eventually } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { connect, type TestClient } from "./clients.js";

let redis: RedisServer;
let client: TestClient;

beforeAll(async () => {
  if (!hasRedisServer) return;
  redis = await startRedisServer();
  client = await connect("ioredis", redis.url);
});

afterAll(async () => {
  await client?.close();
  await redis?.stop();
});

const entry = (ms: number): CooldownEntry => ({
  until: monotonicNow() + ms,
  limit: "search",
  limitSource: "option",
  status: 429,
});

describe.skipIf(!hasRedisServer)("the clocks of a RedisCooldownStore", () => {
  it("writes ends on the wall clock as it reads now, not as it read when the process started", async () => {
    const prefix = `clock:${Math.random()}:`;
    // Started 30 s fast, then set back by NTP: the wall clock is 30 s behind the process's start.
    const wall = () => Date.now() - 30_000;
    const store = new RedisCooldownStore({
      client: client.client,
      prefix,
      liveView: false,
      now: wall,
    });
    await store.set("search|u1", entry(5_000), 5_000);
    const stored = JSON.parse(String(await client.command("GET", `${prefix}search|u1`)));
    expect(Math.abs(stored.until - (wall() + 5_000))).toBeLessThan(1_000);
    // And a replica on that clock reads it back with its 5 s left, not 35 s.
    const left = ((await store.get("search|u1")) as CooldownEntry).until - monotonicNow();
    expect(left).toBeGreaterThan(3_000);
    expect(left).toBeLessThanOrEqual(5_000);
    await store.close();
  });

  it("reads the ends other replicas wrote on its own wall clock: an end already over on it is over", async () => {
    const prefix = `clock-read:${Math.random()}:`;
    const writer = new RedisCooldownStore({ client: client.client, prefix, liveView: false });
    await writer.set("search|u1", entry(5_000), 5_000);
    // A replica whose wall clock reads 10 s later: the 5 s throttle is over there.
    const reader = new RedisCooldownStore({
      client: client.client,
      prefix,
      liveView: false,
      now: () => Date.now() + 10_000,
    });
    const read = (await reader.get("search|u1")) as CooldownEntry;
    expect(read.until).toBeLessThan(monotonicNow());
    await writer.close();
    await reader.close();
  });

  it.each([
    ["backwards", -30_000],
    ["forwards", 30_000],
  ])("a step of the wall clock %s changes no cooldown already in the view", async (_name, step) => {
    const prefix = `clock-step:${Math.random()}:`;
    let offset = 0;
    const store = new RedisCooldownStore({
      client: client.client,
      prefix,
      now: () => Date.now() + offset,
    });
    expect(await eventually(() => store.synced, 5_000)).toBe(true);
    await store.set("search|u1", entry(10_000), 10_000);
    offset = step;
    const seen = store.get("search|u1") as CooldownEntry | undefined;
    const left = (seen?.until ?? 0) - monotonicNow();
    expect(left).toBeGreaterThan(8_000);
    expect(left).toBeLessThanOrEqual(10_000);
    await store.close();
  });

  it("an end written by a replica whose clock is ahead locks no one out past its key's TTL, read by GET or loaded from the index", async () => {
    const prefix = `clock-ahead:${Math.random()}:`;
    await client.command("HSET", `${prefix}layout`, "index", "1");
    const ahead = new RedisCooldownStore({
      client: client.client,
      prefix,
      liveView: false,
      now: () => Date.now() + 30_000,
    });
    await ahead.set("search|u1", entry(2_000), 2_000);
    const byGet = new RedisCooldownStore({ client: client.client, prefix, liveView: false });
    const got = (await byGet.get("search|u1")) as CooldownEntry;
    expect(got.until - monotonicNow()).toBeLessThanOrEqual(2_000);
    const loaded = new RedisCooldownStore({ client: client.client, prefix });
    expect(await eventually(() => loaded.synced, 5_000)).toBe(true);
    const viewed = loaded.get("search|u1") as CooldownEntry;
    expect(viewed.until - monotonicNow()).toBeLessThanOrEqual(2_000);
    for (const store of [ahead, byGet, loaded]) await store.close();
  });

  it("takes `now` only as a function", () => {
    expect(
      () => new RedisCooldownStore({ client: client.client, now: 5 as unknown as () => number }),
    ).toThrow(/`now`/);
  });
});
