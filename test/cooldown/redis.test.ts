// RedisCooldownStore against a real redis-server, with each client people use: ioredis, its
// Valkey fork iovalkey, and node-redis (v4 and v6). And replicas in separate Node processes.

import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CooldownEntry, RedisCooldownStore, throttledFetch } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { hearStore, type StoreErrorEvent, storeErrorsInto } from "../helpers/store-errors.js";
import { CLIENT_KINDS, type ClientKind, connect, type TestClient } from "./clients.js";

// CI starts a Redis and names it in REDIS_URL; elsewhere a throwaway redis-server is started.
const available = process.env.REDIS_URL !== undefined || hasRedisServer;
const replicaScript = fileURLToPath(new URL("./replica.ts", import.meta.url));

let redis: RedisServer | undefined;
let redisUrl = "";
let upstream: TestServer;

beforeAll(async () => {
  if (!available) return;
  if (process.env.REDIS_URL === undefined) redis = await startRedisServer();
  redisUrl = process.env.REDIS_URL ?? redis?.url ?? "";
  upstream = await startServer((_req, res) => {
    res.writeHead(429, { "content-type": "application/json", "retry-after": "30" });
    res.end(JSON.stringify({ message: "slow down" }));
  });
});

afterAll(async () => {
  await upstream?.close();
  await redis?.stop();
});

const entry = (limit: string): CooldownEntry => ({
  until: Date.now() + 60_000,
  limit,
  limitSource: "option",
  status: 429,
});

let prefixes = 0;
const freshPrefix = () => {
  prefixes += 1;
  return `test:${process.pid}:${prefixes}:`;
};

const isThenable = (value: unknown) => typeof (value as { then?: unknown })?.then === "function";

describe.skipIf(!available).each(CLIENT_KINDS)("RedisCooldownStore with %s", (kind: ClientKind) => {
  let a: TestClient;
  let b: TestClient;
  beforeAll(async () => {
    a = await connect(kind, redisUrl);
    b = await connect(kind, redisUrl);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it("writes the absolute end in the entry (PX only collects it) and, without announcements, reads back through GET", async () => {
    const prefix = freshPrefix();
    const store = new RedisCooldownStore({ client: a.client, prefix, liveView: false });
    const written = Date.now();
    await store.set("search|u1", entry("search"), 5_000);
    const pttl = Number(await a.command("PTTL", `${prefix}search|u1`));
    expect(pttl).toBeGreaterThan(4_000);
    expect(pttl).toBeLessThanOrEqual(5_000);
    const stored = JSON.parse(String(await a.command("GET", `${prefix}search|u1`)));
    // The end of the 5 s throttle, not the entry's 60 s: the earlier of the two.
    expect(Math.abs(stored.until - (written + 5_000))).toBeLessThan(500);
    const read = store.get("search|u1");
    expect(isThenable(read)).toBe(true);
    const got = await read;
    expect(got?.limit).toBe("search");
    // The same end, on this process's monotonic clock (the wall clock and it agree here).
    expect(Math.abs((got?.until ?? 0) - stored.until)).toBeLessThan(50);
    expect(store.mayHave("anything")).toBe(true);
    await store.close();
  });

  it("loads what is active when it starts, then answers from its view without a round trip", async () => {
    const prefix = freshPrefix();
    const writer = new RedisCooldownStore({ client: a.client, prefix, liveView: false });
    await writer.set("search|u1", entry("search"), 30_000);
    const reader = new RedisCooldownStore({ client: b.client, prefix });
    expect(await eventually(() => reader.synced)).toBe(true);
    const read = reader.get("search|u1");
    expect(isThenable(read)).toBe(false);
    expect((read as CooldownEntry | undefined)?.limit).toBe("search");
    expect(reader.mayHave("search")).toBe(true);
    expect(reader.mayHave("other")).toBe(false);
    expect(reader.get("search|u2")).toBeUndefined();
    await reader.close();
  });

  it("a throttle announced by one replica reaches another's view at once", async () => {
    const prefix = freshPrefix();
    const one = new RedisCooldownStore({ client: a.client, prefix });
    const two = new RedisCooldownStore({ client: b.client, prefix });
    expect(await eventually(() => one.synced && two.synced)).toBe(true);
    expect(two.mayHave("search")).toBe(false);
    await one.set("search|u1", entry("search"), 30_000);
    expect(await eventually(() => two.mayHave("search"), 1_000)).toBe(true);
    expect((two.get("search|u1") as CooldownEntry | undefined)?.limit).toBe("search");
    await one.close();
    await two.close();
  });

  it("a dropped subscription falls back to asking Redis, is reported once, and recovers", async () => {
    const prefix = freshPrefix();
    const errors: unknown[] = [];
    const store = new RedisCooldownStore({ client: a.client, prefix });
    hearStore(store, errors);
    const writer = new RedisCooldownStore({ client: b.client, prefix, liveView: false });
    expect(await eventually(() => store.synced)).toBe(true);
    // Watch `synced` on every turn of the event loop: node-redis reconnects within milliseconds.
    const seen = new Set<boolean>();
    let watching = true;
    const watch = () => {
      seen.add(store.synced);
      if (watching) setImmediate(watch);
    };
    watch();
    await b.command("CLIENT", "KILL", "TYPE", "pubsub");
    // A throttle written elsewhere meanwhile, without an announcement, is still seen: through
    // GET while the view is down, from the reloaded view once it is back.
    await writer.set("search|u1", entry("search"), 30_000);
    expect(store.mayHave("search")).toBe(true);
    expect((await store.get("search|u1"))?.limit).toBe("search");
    expect(await eventually(() => seen.has(false) && store.synced, 5_000)).toBe(true);
    watching = false;
    expect((store.get("search|u1") as CooldownEntry | undefined)?.limit).toBe("search");
    // And announcements flow again.
    const announcer = new RedisCooldownStore({ client: b.client, prefix });
    expect(await eventually(() => announcer.synced)).toBe(true);
    await announcer.set("other|u1", entry("other"), 30_000);
    expect(await eventually(() => store.mayHave("other"), 1_000)).toBe(true);
    await announcer.close();
    expect(errors.length).toBeLessThanOrEqual(1);
    await store.close();
  });

  it("no entry outlives its upstream's delay, in Redis or in a view", async () => {
    const prefix = freshPrefix();
    const store = new RedisCooldownStore({ client: a.client, prefix });
    const other = new RedisCooldownStore({ client: b.client, prefix });
    expect(await eventually(() => store.synced && other.synced)).toBe(true);
    await store.set("search|u1", entry("search"), 300);
    expect(await eventually(() => other.mayHave("search"), 1_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(Number(await a.command("PTTL", `${prefix}search|u1`))).toBe(-2);
    expect(store.mayHave("search")).toBe(false);
    expect(other.mayHave("search")).toBe(false);
    expect(other.get("search|u1")).toBeUndefined();
    await store.close();
    await other.close();
  });
});

/** A replica in its own process, answering over IPC. */
async function startReplica(kind: ClientKind, announce: boolean, prefix: string) {
  const child: ChildProcess = fork(replicaScript, [redisUrl, kind, String(announce), prefix], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let next = 0;
  const pending = new Map<number, (value: Record<string, unknown>) => void>();
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`replica exited with ${code}`)));
    child.on("message", (message: { id?: number; ready?: true }) => {
      if (message.ready) resolve();
      if (message.id !== undefined) pending.get(message.id)?.(message);
    });
  });
  const ask = (message: object) =>
    new Promise<Record<string, unknown>>((resolve) => {
      next += 1;
      pending.set(next, resolve);
      child.send({ id: next, ...message });
    });
  return {
    call: () => ask({ call: `${upstream.url}/search` }),
    synced: async () => (await ask({ synced: true })).synced === true,
    close: async () => {
      await ask({ close: true });
    },
  };
}

describe.skipIf(!available)("replicas in separate processes share a throttle through Redis", () => {
  it.each([
    [true, "ioredis", "node-redis 6"],
    [false, "node-redis 4", "iovalkey"],
  ] as const)("liveView: %s (replica A on %s, replica B on %s)", async (announce, kindA, kindB) => {
    const prefix = freshPrefix();
    const [a, b] = await Promise.all([
      startReplica(kindA, announce, prefix),
      startReplica(kindB, announce, prefix),
    ]);
    try {
      if (announce) {
        for (let i = 0; i < 50 && !(await b.synced()); i += 1)
          await new Promise((r) => setTimeout(r, 20));
        expect(await b.synced()).toBe(true);
      }
      const before = upstream.requests;
      expect(await a.call()).toMatchObject({
        outcome: "throttle",
        delaySource: "retry-after",
        retryAfterMs: 30_000,
      });
      expect(upstream.requests).toBe(before + 1);
      const seen = await b.call();
      expect(seen).toMatchObject({ outcome: "throttle", delaySource: "cooldown" });
      expect(seen.retryAfterMs).toBeLessThanOrEqual(30_000);
      expect(upstream.requests).toBe(before + 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe.skipIf(!hasRedisServer)("Redis stopped in the middle of a test", () => {
  it("lets calls through to the upstream, throws nothing, and reports the failure once", async () => {
    const own = await startRedisServer();
    let requests = 0;
    const ok = await startServer((_req, res) => {
      requests += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
    const client = await connect("ioredis", own.url);
    const events: StoreErrorEvent[] = [];
    const guarded = throttledFetch({
      limit: "search",
      cooldown: {
        // The store sees the lost connection itself and answers from memory at once: it reports
        // the outage (once); the guard, never kept waiting, has nothing to report.
        store: new RedisCooldownStore({ client: client.client, liveView: false }),
        partitionSecret: "a shared secret of the test replicas",
        storeTimeoutMs: 200,
      },
      onEvent: storeErrorsInto(events),
    });
    // The store's own reports, and the guard's (the wrapper's source).
    const storeErrors = () => events.filter((event) => event.source === "RedisCooldownStore");
    const errors = () => events.filter((event) => event.source !== "RedisCooldownStore");
    try {
      expect((await guarded(ok.url)).status).toBe(200);
      expect(errors()).toHaveLength(0);
      await own.stop();
      for (let i = 0; i < 3; i += 1) expect((await guarded(ok.url)).status).toBe(200);
      expect(requests).toBe(4);
      // Once per outage each: the store (it saw the connection go), and the guard only if one
      // command was already on its way and timed out.
      expect(storeErrors()).toHaveLength(1);
      expect(errors().length).toBeLessThanOrEqual(1);
    } finally {
      await client.close();
      await ok.close();
      await own.stop();
    }
  });
});
