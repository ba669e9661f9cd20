// `liveView` of a RedisCooldownStore, against a real Redis: with it off, a write is announced to
// no replica; a value that is not a boolean throws a TypeError naming it.

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monotonicNow } from "../../src/cooldown/clock.js";
import { type CooldownEntry, RedisCooldownStore } from "../../src/index.js";
import { eventually } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { connect, type TestClient } from "./clients.js";

let redis: RedisServer;
let client: TestClient;
let listener: Redis;

beforeAll(async () => {
  if (!hasRedisServer) return;
  redis = await startRedisServer();
  client = await connect("ioredis", redis.url);
  listener = new Redis(redis.url);
  listener.on("error", () => {});
});

afterAll(async () => {
  listener?.disconnect();
  await client?.close();
  await redis?.stop();
});

const entry = (ms: number): CooldownEntry => ({
  until: monotonicNow() + ms,
  limit: "search",
  limitSource: "option",
  status: 429,
});

/** The keys announced on `prefix`'s channel while `run` runs, until `last` is heard. */
async function announcedKeys(prefix: string, last: string, run: () => Promise<void>) {
  const heard: string[] = [];
  const channel = `${prefix}announcements`;
  const onMessage = (from: string, message: string) => {
    if (from === channel) heard.push(message);
  };
  listener.on("message", onMessage);
  await listener.subscribe(channel);
  try {
    await run();
    expect(await eventually(() => heard.some((message) => message.includes(last)))).toBe(true);
  } finally {
    listener.off("message", onMessage);
    await listener.unsubscribe(channel);
  }
  return heard;
}

describe.skipIf(!hasRedisServer)("liveView", () => {
  it("announces no write with liveView false, and every write by default", async () => {
    const prefix = `live-view:${Math.random()}:`;
    const stores = [
      new RedisCooldownStore({ client: client.client, prefix, liveView: false }),
      new RedisCooldownStore({ client: client.client, prefix }),
    ];
    const [quiet, shared] = stores as [RedisCooldownStore, RedisCooldownStore];
    const heard = await announcedKeys(prefix, "search|by-default", async () => {
      await quiet.set("search|by-live-view", entry(5_000), 5_000);
      await shared.set("search|by-default", entry(5_000), 5_000);
    });
    expect(heard.some((message) => message.includes("by-live-view"))).toBe(false);
    // Written all the same: liveView chooses the view, not whether Redis holds the entry.
    expect(await client.command("EXISTS", `${prefix}search|by-live-view`)).toBe(1);
    await Promise.all(stores.map((store) => store.close()));
  });

  it("throws a TypeError naming liveView when it is not a boolean", () => {
    const bad = () => new RedisCooldownStore({ client: client.client, liveView: "no" as never });
    expect(bad).toThrow(TypeError);
    expect(bad).toThrow(/`liveView`/);
  });
});
