// The index a RedisCooldownStore loads its view from (src/cooldown/redis-index.ts): written with
// every entry, read without walking the keyspace, bounded by Redis' own expiry, honest with a
// fleet where an older replica (no index) still writes. With every client family.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUCKET_MS } from "../../src/cooldown/redis-index.js";
import { type CooldownEntry, RedisCooldownStore } from "../../src/index.js";
import { fakeHeartbeats } from "../helpers/heartbeats.js";
import { eventually } from "../helpers/http-server.js";
import {
  hasRedisServer,
  type RedisServer,
  startRedisServer,
  userWithoutScripts,
} from "../helpers/redis.js";
import { hearStore } from "../helpers/store-errors.js";
import { CLIENT_KINDS, type ClientKind, connect, type TestClient } from "./clients.js";

let redis: RedisServer | undefined;
let url = "";
let noScripts = "";

beforeAll(async () => {
  if (!hasRedisServer) return;
  redis = await startRedisServer();
  url = redis.url;
  const admin = await connect("ioredis", url);
  noScripts = await userWithoutScripts(admin, url);
  await admin.close();
});

afterAll(async () => {
  await redis?.stop();
});

let prefixes = 0;
const freshPrefix = () => {
  prefixes += 1;
  return `index:${process.pid}:${prefixes}:`;
};

const entry = (ms = 60_000): CooldownEntry => ({
  until: Date.now() + ms,
  limit: "search",
  limitSource: "option",
  status: 429,
});

/** Calls of `name` Redis counted since the last CONFIG RESETSTAT. */
async function calls(admin: TestClient, name: string): Promise<number> {
  const stats = String(await admin.command("INFO", "commandstats"));
  return Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

/** Every record in every bucket of `prefix`. */
async function records(admin: TestClient, prefix: string): Promise<string[]> {
  const buckets = (await admin.command("KEYS", `${prefix}log:*`)) as string[];
  const all: string[] = [];
  for (const bucket of buckets)
    all.push(...((await admin.command("LRANGE", bucket, "0", "-1")) as string[]));
  return all;
}

/** `check` (asked every 50 ms) held within `timeoutMs`. */
async function eventuallyAsync(check: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const marked = (admin: TestClient, prefix: string) =>
  admin.command("HSET", `${prefix}layout`, "index", "1");

describe.skipIf(!hasRedisServer).each(CLIENT_KINDS)("the index with %s", (kind: ClientKind) => {
  let admin: TestClient;
  let client: TestClient;
  beforeAll(async () => {
    admin = await connect(kind, url);
    client = await connect(kind, url);
  });
  afterAll(async () => {
    await admin.close();
    await client.close();
  });

  it("a write puts its record in its bucket's list, in the same transaction as the key, and the list ends with its bucket", async () => {
    const prefix = freshPrefix();
    const store = new RedisCooldownStore({ client: client.client, prefix, liveView: false });
    await store.set("search|u1", entry(), 2_000);
    const text = String(await admin.command("GET", `${prefix}search|u1`));
    const until = (JSON.parse(text) as CooldownEntry).until;
    const bucket = `${prefix}log:${Math.floor(until / BUCKET_MS)}`;
    expect(await admin.command("LRANGE", bucket, "0", "-1")).toEqual([`search|u1\n${text}`]);
    // Read before the PTTL: an event loop slow to take its answer cannot make the bound fail.
    const asked = Date.now();
    const left = Number(await admin.command("PTTL", bucket));
    const end = (Math.floor(until / BUCKET_MS) + 1) * BUCKET_MS;
    expect(left).toBeGreaterThan(0);
    // Slack for the time between the write's PEXPIRE being computed and run (a loaded machine).
    expect(left).toBeLessThanOrEqual(end - asked + 1_000);
    expect(
      Number(await admin.command("ZSCORE", `${prefix}log`, String(Math.floor(until / BUCKET_MS)))),
    ).toBe(end);
    await store.close();
  });

  it.each([
    ["with scripts", false],
    ["from a Redis that refuses scripts", true],
  ])(
    "%s: a view loads from the index once the marker says it is complete, with no SCAN and no page script",
    async (_name, refused) => {
      const prefix = freshPrefix();
      const writer = new RedisCooldownStore({ client: client.client, prefix, liveView: false });
      for (let i = 0; i < 50; i += 1) await writer.set(`search|u${i}`, entry(), 30_000);
      // Only in the keyspace, as a writer without the index would leave it: a SCAN would find it.
      await admin.command(
        "SET",
        `${prefix}search|keys-only`,
        JSON.stringify(entry()),
        "PX",
        "30000",
      );
      await marked(admin, prefix);
      const reader = await connect(kind, refused ? noScripts : url);
      await admin.command("CONFIG", "RESETSTAT");
      const errors: unknown[] = [];
      const store = new RedisCooldownStore({ client: reader.client, prefix });
      hearStore(store, errors);
      expect(await eventually(() => store.synced, 5_000)).toBe(true);
      expect(await calls(admin, "scan")).toBe(0);
      // No SCAN page script: the only script is the one that reads a page of records (its LRANGE
      // counted inside it) with their keys' TTLs, one a page.
      const pages = await calls(admin, "lrange");
      expect(pages).toBeGreaterThan(0);
      expect(await calls(admin, "eval")).toBe(refused ? 0 : pages);
      for (const i of [0, 49]) {
        expect((store.get(`search|u${i}`) as CooldownEntry | undefined)?.limit).toBe("search");
      }
      expect(store.get("search|keys-only")).toBeUndefined();
      expect(errors).toEqual([]);
      await store.close();
      await reader.close();
    },
  );

  it("without the marker (entries of an older writer), the view is loaded by SCAN; once no older replica was heard for 3 s, the entries are copied into the index and the marker is set", async () => {
    const prefix = freshPrefix();
    // As 0.2.0 wrote them: the key alone.
    for (let i = 0; i < 20; i += 1) {
      await admin.command("SET", `${prefix}search|old${i}`, JSON.stringify(entry()), "PX", "60000");
    }
    const { beats, beatsUntil } = fakeHeartbeats(client);
    const store = new RedisCooldownStore({ client: client.client, prefix });
    expect(await eventually(() => store.synced, 5_000)).toBe(true);
    expect((store.get("search|old7") as CooldownEntry | undefined)?.limit).toBe("search");
    const marker = async () => (await admin.command("HGET", `${prefix}layout`, "index")) === "1";
    // 2.5 s of beats: not yet.
    await beats(5);
    expect(await marker()).toBe(false);
    expect(await beatsUntil(marker, 10)).toBe(true);
    const copied = await records(admin, prefix);
    expect(copied.filter((record) => record.startsWith("search|old"))).toHaveLength(20);
    await store.close();
    // A replica that starts now reads the index, and has the older writer's entries.
    await admin.command("CONFIG", "RESETSTAT");
    const next = new RedisCooldownStore({ client: client.client, prefix });
    expect(await eventually(() => next.synced, 5_000)).toBe(true);
    expect(await calls(admin, "scan")).toBe(0);
    expect((next.get("search|old19") as CooldownEntry | undefined)?.limit).toBe("search");
    await next.close();
  }, 15_000);

  it("an older replica heard on the channel: reported once, the marker dropped, the view loaded again by SCAN (its keys-only entries are in it), and the marker not set while it beats", async () => {
    const prefix = freshPrefix();
    await marked(admin, prefix);
    const errors: unknown[] = [];
    const { beats } = fakeHeartbeats(client);
    const store = new RedisCooldownStore({ client: client.client, prefix });
    hearStore(store, errors);
    expect(await eventually(() => store.synced, 5_000)).toBe(true);
    // The older replica: a throttle written as 0.2.0 writes it (key only), and its beats.
    await admin.command("SET", `${prefix}search|old`, JSON.stringify(entry()), "PX", "60000");
    const beat = () =>
      admin.command("PUBLISH", `${prefix}announcements`, JSON.stringify({ o: "older", h: 1 }));
    await beat();
    // From the view (synced: `get` answers at once), not from a GET on its way.
    const inView = () => store.synced && store.get("search|old") !== undefined;
    expect(await eventually(inView, 5_000)).toBe(true);
    expect((store.get("search|old") as CooldownEntry | undefined)?.limit).toBe("search");
    expect(await admin.command("HGET", `${prefix}layout`, "index")).toBeNull();
    expect(errors).toMatchObject([
      { type: "store-error", source: "RedisCooldownStore", operation: "sync" },
    ]);
    // 4 s of heartbeats, the older replica beating before each: the copy never runs.
    await beats(8, beat);
    expect(await admin.command("HGET", `${prefix}layout`, "index")).toBeNull();
    expect(store.synced).toBe(true);
    expect(errors).toHaveLength(1);
    await store.close();
  }, 15_000);
});

describe.skipIf(!hasRedisServer)("the index's bound", () => {
  it(`a bucket that received 2,000 entries which ended is gone a bucket (${BUCKET_MS / 1000} s) later, and the list of buckets with it: the index holds at most the entries that ended less than a bucket ago`, async () => {
    const admin = await connect("ioredis", url);
    const client = await connect("ioredis", url);
    const prefix = freshPrefix();
    const store = new RedisCooldownStore({ client: client.client, prefix, liveView: false });
    for (let from = 0; from < 2_000; from += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => store.set(`search|u${from + i}`, entry(), 1_000)),
      );
    }
    const written = await records(admin, prefix);
    expect(written.length).toBe(2_000);
    expect(
      await eventuallyAsync(
        async () => (await records(admin, prefix)).length === 0,
        BUCKET_MS + 1_500,
      ),
    ).toBe(true);
    // The next write trims the list of buckets of every bucket that ended.
    await store.set("search|later", entry(), 60_000);
    expect(await admin.command("ZCARD", `${prefix}log`)).toBe(1);
    expect(await records(admin, prefix)).toHaveLength(1);
    await store.close();
    await admin.close();
    await client.close();
  }, 15_000);
});
