// Attack: a co-tenant of the cooldown Redis who may only PUBLISH sends announcements without
// `v` (as a replica of an older version would), each of which drops the layout marker, makes
// every view load by SCAN and, a while later, copy the keyspace into the index again. The copy
// must be idempotent (the index keeps one record per write, however often it runs, the first
// copy included) and bounded in time (it backs off while such announcements keep coming).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monotonicNow } from "../../src/cooldown/clock.js";
import { RedisCooldownStore } from "../../src/index.js";
import { connect, type TestClient } from "../cooldown/clients.js";
import { fakeHeartbeats } from "../helpers/heartbeats.js";
import { eventually } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";

const ENTRIES = 500;

describe.skipIf(!hasRedisServer)("a co-tenant with PUBLISH only", () => {
  let redis: RedisServer;
  let admin: TestClient;
  beforeAll(async () => {
    redis = await startRedisServer();
    admin = await connect("ioredis", redis.url);
  });
  afterAll(async () => {
    await admin.close();
    await redis.stop();
  });

  /** Records in every bucket the index lists. */
  async function records(prefix: string): Promise<number> {
    const ids = (await admin.command("ZRANGE", `${prefix}log`, "0", "-1")) as string[];
    let count = 0;
    for (const id of ids) count += Number(await admin.command("LLEN", `${prefix}log:${id}`));
    return count;
  }

  const marked = async (prefix: string) =>
    (await admin.command("HGET", `${prefix}layout`, "index")) === "1";

  /** Polls `check` (a Redis read) until it holds, at most `ms`. */
  async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return check();
  }

  it("cannot grow the index: the copy into it writes no record twice, the first copy included, however often it is made to run", async () => {
    const prefix = `publish-only:${Math.random()}:`;
    const client = await connect("ioredis", redis.url);
    // The copy waits on the store's heartbeats (3 s, then twice as long once undone): fake ones.
    const { beatsUntil } = fakeHeartbeats(client);
    const store = new RedisCooldownStore({ client: client.client, prefix });
    expect(await eventually(() => store.synced, 5_000)).toBe(true);
    for (let i = 0; i < ENTRIES; i += 1) {
      await store.set(
        `search|u${i}`,
        { until: monotonicNow() + 60_000, limit: "search", limitSource: "option", status: 429 },
        60_000,
      );
    }
    expect(await records(prefix)).toBe(ENTRIES);
    // The first copy (no marker yet: written before this replica knew the index was complete).
    expect(await beatsUntil(() => marked(prefix), 20)).toBe(true);
    expect(await records(prefix)).toBe(ENTRIES);
    // 14 bytes, as an older replica's beat: the marker goes, and the copy runs again later.
    await admin.command("PUBLISH", `${prefix}announcements`, '{"o":"x","h":1}');
    expect(await until(async () => !(await marked(prefix)), 2_000)).toBe(true);
    expect(await beatsUntil(() => marked(prefix), 30)).toBe(true);
    expect(await records(prefix)).toBe(ENTRIES);
    await store.close();
    await client.close();
  });
});
