// Attack: whoever can publish on the cooldown announcement channel (anyone on a shared Redis)
// sends announcements built to hurt: huge ones (a stalled event loop), ones that are no entry,
// ones past the clamp (a lock-out past maxRetryAfterSeconds), a flood to fill the view (memory,
// and real announcements lost). None may do harm: the view stays bounded and honest.

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { RedisCooldownStore, throttledFetch } from "../../src/index.js";
import { eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { hearStore } from "../helpers/store-errors.js";

const available = process.env.REDIS_URL !== undefined || hasRedisServer;
const SECRET = "sixteen characters at least";

describe.skipIf(!available)("hostile announcements on the channel", () => {
  let redis: RedisServer | undefined;
  let url: string;
  let ok: TestServer;
  const clients: Redis[] = [];
  beforeAll(async () => {
    if (process.env.REDIS_URL === undefined) redis = await startRedisServer();
    url = process.env.REDIS_URL ?? redis?.url ?? "";
    ok = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await ok.close();
    await redis?.stop();
  });

  async function victim() {
    const prefix = `hostile:${Math.random()}:`;
    const client = new Redis(url);
    const attacker = new Redis(url);
    clients.push(client, attacker);
    const errors: unknown[] = [];
    /** When each error was reported (performance.now()). */
    const reportedAt: number[] = [];
    const store = new RedisCooldownStore({ client, prefix });
    hearStore(store, errors, () => reportedAt.push(performance.now()));
    expect(await eventually(() => store.synced)).toBe(true);
    const publish = (message: string) => attacker.publish(`${prefix}announcements`, message);
    return { store, prefix, errors, reportedAt, publish };
  }

  const entry = {
    until: Date.now() + 60_000,
    limit: "search",
    limitSource: "option" as const,
    status: 429,
  };

  it("a huge announcement and ones that are no entry are not taken in", async () => {
    const { store, publish } = await victim();
    await publish(
      JSON.stringify({
        o: "x",
        k: "search|",
        t: 60_000,
        e: { ...entry, message: "x".repeat(8 * 1024 * 1024) },
      }),
    );
    await publish(JSON.stringify({ o: "x", k: "search|", t: 60_000, e: "lock everyone out" }));
    await publish("{{{ not json");
    await publish(JSON.stringify({ o: "x", k: 5, t: 60_000, e: entry }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.mayHave("search")).toBe(false);
    await store.close();
  });

  it("an announcement past maxRetryAfterSeconds locks no one out", async () => {
    const { store, publish } = await victim();
    const api = throttledFetch({
      limit: "search",
      maxRetryAfterSeconds: 60,
      cooldown: { store, partitionSecret: SECRET },
    });
    await publish(
      JSON.stringify({
        o: "x",
        k: "search|",
        t: 2 ** 31 - 1,
        e: { ...entry, until: Date.now() + 2 ** 31 - 1 },
      }),
    );
    expect(await eventually(() => store.mayHave("search"), 1_000)).toBe(true);
    expect((await api(ok.url)).status).toBe(200);
    await store.close();
  });

  it("an outage that lasts (a view the flood filled) is reported once, whatever else fails meanwhile: a dropped subscription, its reload, writes paused", async () => {
    const { store, errors, prefix } = await victim();
    const attacker = clients[clients.length - 1] as Redis;
    // A subscriber this far behind (~31 MB of announcements) is disconnected by Redis' default
    // pubsub output limit (32 MB) on a loaded machine, and the view never fills: lifted here,
    // and put back after.
    const [, limits] = (await attacker.call("CONFIG", "GET", "client-output-buffer-limit")) as [
      string,
      string,
    ];
    await attacker.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0");
    onTestFinished(async () => {
      await attacker.call("CONFIG", "SET", "client-output-buffer-limit", limits);
    });
    for (let from = 0; from < 210_000; from += 10_000) {
      const head = `{"o":"x","t":20000,"e":${JSON.stringify({ ...entry, until: Date.now() + 20_000 })},"k":"flood`;
      await attacker.eval(
        "local s = tonumber(ARGV[2]) for i = s, s + 9999 do redis.call('PUBLISH', KEYS[1], ARGV[1] .. i .. '|\"}') end",
        1,
        `${prefix}announcements`,
        head,
        String(from),
      );
    }
    // Reading ~31 MB of announcements takes seconds, more while another test file has the other
    // core (the tests run two at a time): a bound on the poll, not on the store.
    expect(await eventually(() => errors.length > 0 && !store.synced, 15_000)).toBe(true);
    // The whole flood read (Redis has sent it all, and a second more for the store to take in
    // what its socket holds): the view is full (its entries last 20 s), and that was reported.
    const sent = async () =>
      !/omem=[1-9]/.test(String(await attacker.call("CLIENT", "LIST", "TYPE", "pubsub")));
    for (let i = 0; i < 150 && !(await sent()); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const reported = errors.length;
    // The subscription dropped and made again: the view is loaded again (and still full).
    await attacker.call("CLIENT", "KILL", "TYPE", "pubsub");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Then a beat that Redis does not answer in time.
    await attacker.call("CLIENT", "PAUSE", "600", "WRITE");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(store.synced).toBe(false);
    expect(errors).toHaveLength(reported);
    await store.close();
  }, 30_000);

  it("a flood that fills the view turns it off (calls ask Redis), reported once (whichever of its effects came first), and the view comes back once the flood is over", async () => {
    const { store, errors, reportedAt, prefix } = await victim();
    const attacker = clients[clients.length - 1] as Redis;
    // 210,000 small announcements, past the view's 200,000 entries, each lasting 8 s, sent
    // by a script inside Redis (as fast as an attacker can), 10,000 a script so that Redis
    // itself stays responsive.
    for (let from = 0; from < 210_000; from += 10_000) {
      const head = `{"o":"x","t":8000,"e":${JSON.stringify({ ...entry, until: Date.now() + 8_000 })},"k":"flood`;
      await attacker.eval(
        "local s = tonumber(ARGV[2]) for i = s, s + 9999 do redis.call('PUBLISH', KEYS[1], ARGV[1] .. i .. '|\"}') end",
        1,
        `${prefix}announcements`,
        head,
        String(from),
      );
    }
    const lastSent = Date.now();
    expect(await eventually(() => !store.synced, 5_000)).toBe(true);
    // Reported by the first of its effects the store saw: the view filled, or (on a loaded
    // machine, the flood then takes seconds to send and to read) the subscription fell behind
    // it, or a command waited behind it.
    const effect = { type: "store-error", source: "RedisCooldownStore", operation: "sync" };
    expect(errors.length).toBeGreaterThanOrEqual(1);
    // A real throttle written by another replica is still honoured: through Redis.
    const writer = new RedisCooldownStore({ client: clients[0] as Redis, prefix, liveView: false });
    await writer.set("search|", { ...entry, until: Date.now() + 60_000 }, 60_000);
    expect(store.mayHave("search")).toBe(true);
    expect((await store.get("search|"))?.limit).toBe("search");
    // The flood is over 8 s after it was sent: the view is live again within 2 s of that.
    expect(await eventually(() => store.synced, lastSent + 10_000 - Date.now())).toBe(true);
    expect((store.get("search|") as { limit?: string } | undefined)?.limit).toBe("search");
    // Once per outage: a report only after the store was live again for 2 s (its heartbeats
    // saw it so), never a second effect of the outage that was being reported. On a quiet
    // machine the flood is read in one go, and this is one report in all.
    for (const error of errors) expect(error).toMatchObject(effect);
    for (let i = 1; i < reportedAt.length; i += 1) {
      expect((reportedAt[i] as number) - (reportedAt[i - 1] as number)).toBeGreaterThanOrEqual(
        2_000,
      );
    }
    await writer.close();
    await store.close();
  }, 30_000);
});
