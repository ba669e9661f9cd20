import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisCooldownStore, throttledFetch } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";

const run = promisify(execFile);
const worker = fileURLToPath(new URL("./redis-worker.ts", import.meta.url));
// CI starts a Redis and names it in REDIS_URL; elsewhere a throwaway redis-server is started.
const available = process.env.REDIS_URL !== undefined || hasRedisServer;

describe.skipIf(!available)("RedisCooldownStore with a real Redis", () => {
  let upstream: TestServer;
  let ownRedis: RedisServer | undefined;
  let redisUrl: string;

  beforeAll(async () => {
    upstream = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
      res.end(JSON.stringify({ message: "slow down" }));
    });
    if (process.env.REDIS_URL === undefined) ownRedis = await startRedisServer();
    redisUrl = process.env.REDIS_URL ?? ownRedis?.url ?? "";
    const client = new Redis(redisUrl);
    await client.flushdb();
    client.disconnect();
  });

  afterAll(async () => {
    await upstream.close();
    await ownRedis?.stop();
  });

  it("a throttle seen by one Node process short-circuits another", async () => {
    const callFrom = async () => {
      const { stdout } = await run(process.execPath, [
        "--import",
        "tsx",
        worker,
        redisUrl,
        upstream.url,
      ]);
      return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
        outcome: string;
        delaySource?: string;
        retryAfterMs?: number;
      };
    };
    const a = await callFrom();
    expect(a).toMatchObject({
      outcome: "throttle",
      delaySource: "retry-after",
      retryAfterMs: 30_000,
    });
    expect(upstream.requests).toBe(1);
    const b = await callFrom();
    expect(b).toMatchObject({ outcome: "throttle", delaySource: "cooldown" });
    expect(b.retryAfterMs).toBeLessThan(30_000);
    expect(upstream.requests).toBe(1);
  });

  it("namespaces its keys and lets Redis expire them", async () => {
    const client = new Redis(redisUrl);
    const store = new RedisCooldownStore({ client, prefix: "test:", announce: false });
    await store.set(
      "k",
      { until: Date.now() + 1000, limit: "x", limitSource: "option", status: 429 },
      1000,
    );
    expect(await client.pttl("test:k")).toBeGreaterThan(0);
    expect((await store.get("k"))?.limit).toBe("x");
    await client.set("test:garbage", "not json");
    expect(await store.get("garbage")).toBeUndefined();
    client.disconnect();
  });
});

describe.skipIf(!hasRedisServer)("Redis stopped in the middle of a test", () => {
  it("lets calls through to the upstream, throws nothing, and reports the failure once", async () => {
    const redis = await startRedisServer();
    let requests = 0;
    const upstream = await startServer((_req, res) => {
      requests += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    client.on("error", () => {}); // ioredis reports reconnects here; the store reports its own
    const errors: unknown[] = [];
    const guarded = throttledFetch({
      limit: "search",
      cooldown: {
        store: new RedisCooldownStore({ client }),
        partitionSecret: "a shared secret of the test replicas",
        storeTimeoutMs: 200,
        onStoreError: (error) => errors.push(error),
      },
    });
    try {
      expect((await guarded(upstream.url)).status).toBe(200);
      expect(errors).toHaveLength(0);
      await redis.stop();
      for (let i = 0; i < 3; i += 1) expect((await guarded(upstream.url)).status).toBe(200);
      expect(requests).toBe(4);
      expect(errors).toHaveLength(1);
    } finally {
      client.disconnect();
      await upstream.close();
      await redis.stop();
    }
  });
});
