// Attack: whoever can write to the cooldown Redis plants records in the index a view is loaded
// from (src/cooldown/redis-index.ts): text that is no entry, a huge record, records that name no
// key or the store's own channel, an end years past the clamp, keys of the wrong type where the
// index should be. Each is treated as the same value planted as a key is: never taken as a
// cooldown it is not, no lock-out past maxRetryAfterSeconds, no stall, no load that stops.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUCKET_MS } from "../../src/cooldown/redis-index.js";
import { type CooldownEntry, RedisCooldownStore, throttledFetch } from "../../src/index.js";
import { CLIENT_KINDS, type ClientKind, connect, type TestClient } from "../cooldown/clients.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { hearStore, storeErrorsInto } from "../helpers/store-errors.js";

const SECRET = "sixteen characters at least";

describe.skipIf(!hasRedisServer)("hostile records in the index", () => {
  let redis: RedisServer;
  let ok: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    redis = await startRedisServer();
    admin = await connect("ioredis", redis.url);
    ok = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  afterAll(async () => {
    await admin.close();
    await ok.close();
    await redis.stop();
  });

  const entry = (ms = 60_000) => ({
    until: Date.now() + ms,
    limit: "search",
    limitSource: "option" as const,
    status: 429,
  });

  /** Plants `records` in the bucket of an end a minute away, says the index is complete. */
  async function plant(prefix: string, records: string[]): Promise<string> {
    const id = Math.floor((Date.now() + 60_000) / BUCKET_MS);
    const bucket = `${prefix}log:${id}`;
    await admin.command("RPUSH", bucket, ...records);
    // Each record's key, as a write leaves it beside its record: a record whose key is gone is
    // left out of a load (its TTL is what bounds it), so the record's own text is what is read.
    for (const one of records) {
      const bar = one.lastIndexOf("\n");
      if (bar > 0) await admin.command("SET", prefix + one.slice(0, bar), "x", "PX", "120000");
    }
    await admin.command("PEXPIRE", bucket, "120000");
    await admin.command("ZADD", `${prefix}log`, String((id + 1) * BUCKET_MS), String(id));
    await admin.command("HSET", `${prefix}layout`, "index", "1");
    return bucket;
  }

  async function victim(prefix: string, kind: ClientKind = "ioredis") {
    const client = await connect(kind, redis.url);
    const errors: unknown[] = [];
    const store = new RedisCooldownStore({ client: client.client, prefix });
    hearStore(store, errors);
    expect(await eventually(() => store.synced, 5_000)).toBe(true);
    return {
      store,
      errors,
      close: async () => {
        await store.close();
        await client.close();
      },
    };
  }

  it("text that is no entry is held as invalid (the guard ignores it and reports it once), as the same text planted as a key is", async () => {
    const prefix = `hostile-index:${Math.random()}:`;
    await plant(prefix, [
      "search|\n{{{ not json",
      `search|\n${JSON.stringify({ until: "never" })}`,
    ]);
    const { store, close } = await victim(prefix);
    expect(typeof store.get("search|")).toBe("string");
    const storeErrors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      cooldown: { store, partition: () => "" },
      onEvent: storeErrorsInto(storeErrors),
    });
    expect((await api(ok.url)).status).toBe(200);
    expect((await api(ok.url)).status).toBe(200);
    expect(storeErrors).toHaveLength(1);
    expect(storeErrors[0]).toMatchObject({
      operation: "entry",
      errorName: "InvalidCooldownEntryError",
    });
    await close();
  });

  it("a huge record, records that name no key or the store's own channel are left out; the load goes on past them, with no long stall", async () => {
    const prefix = `hostile-index:${Math.random()}:`;
    const good = JSON.stringify(entry());
    await plant(prefix, [
      `search|huge\n${JSON.stringify({ ...entry(), message: "x".repeat(8 * 1024 * 1024) })}`,
      good,
      `announcements\n${good}`,
      `search|after\n${good}`,
    ]);
    const started = performance.now();
    const { store, errors, close } = await victim(prefix);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(store.get("search|huge")).toBeUndefined();
    expect(store.get("announcements")).toBeUndefined();
    expect((store.get("search|after") as CooldownEntry | undefined)?.limit).toBe("search");
    expect(errors).toEqual([]);
    await close();
  });

  it("an end years past maxRetryAfterSeconds locks no one out", async () => {
    const prefix = `hostile-index:${Math.random()}:`;
    const years = JSON.stringify({ ...entry(), until: Date.now() + 3 * 365 * 86_400_000 });
    await plant(prefix, [`search|\n${years}`]);
    const { store, close } = await victim(prefix);
    expect(store.mayHave("search")).toBe(true);
    const api = throttledFetch({
      limit: "search",
      maxRetryAfterSeconds: 60,
      cooldown: { store, partition: () => "", partitionSecret: SECRET },
    });
    expect((await api(ok.url)).status).toBe(200);
    await close();
  });

  it("buckets that are no number are not read, and the index is still read", async () => {
    const prefix = `hostile-index:${Math.random()}:`;
    await plant(prefix, [`search|u1\n${JSON.stringify(entry())}`]);
    const future = String(Date.now() + 120_000);
    await admin.command("ZADD", `${prefix}log`, future, "../../elsewhere", future, "1e9");
    await admin.command(
      "RPUSH",
      `${prefix}log:../../elsewhere`,
      `search|planted\n${JSON.stringify(entry())}`,
    );
    const { store, close } = await victim(prefix);
    expect((store.get("search|u1") as CooldownEntry | undefined)?.limit).toBe("search");
    expect(store.get("search|planted")).toBeUndefined();
    await close();
  });

  it("a marker of the wrong type: the view is loaded by SCAN (the index is not trusted), nothing reported", async () => {
    const prefix = `hostile-index:${Math.random()}:`;
    await admin.command("SET", `${prefix}layout`, "index=1");
    await admin.command("SET", `${prefix}search|keys`, JSON.stringify(entry()), "PX", "60000");
    const { store, errors, close } = await victim(prefix);
    expect((store.get("search|keys") as CooldownEntry | undefined)?.limit).toBe("search");
    expect(errors).toEqual([]);
    await close();
  });

  it.each(CLIENT_KINDS)(
    "with %s, a key of the wrong type where a bucket should be: the view is loaded by SCAN instead (no Redis taken for down, nothing reported)",
    async (kind) => {
      const prefix = `hostile-index:${Math.random()}:`;
      const bucket = await plant(prefix, [`search|u1\n${JSON.stringify(entry())}`]);
      await admin.command("DEL", bucket);
      await admin.command("SET", bucket, "not a list");
      await admin.command("SET", `${prefix}search|keys`, JSON.stringify(entry()), "PX", "60000");
      const { store, errors, close } = await victim(prefix, kind);
      expect((store.get("search|keys") as CooldownEntry | undefined)?.limit).toBe("search");
      expect(errors).toEqual([]);
      await close();
    },
  );
});
