// The faults of the suite, each injected, waited out and healed by `run` (the fault's own window
// is from its start until `run` returns). A table: one entry per fault.

import type { Redis } from "ioredis";
import type { FaultProxy } from "./proxy.js";
import type { RedisProcess } from "./redis-process.js";
import type { Replica } from "./replicas.js";
import { at, sleep } from "./upstream.js";

export interface World {
  redis: RedisProcess;
  proxy: FaultProxy;
  admin: Redis;
  /** The replicas now; a fault may replace one (`respawn`). */
  replicas: Replica[];
  /** Starts a replica in place of `replicas[index]` (which must be gone), its clock `skewMs` off. */
  respawn(index: number, skewMs?: number): Promise<void>;
  /** The channel the replicas' stores announce on. */
  channel: string;
}

export interface Fault {
  name: string;
  /** Injects the fault, waits it out, heals it; returns a note for the table. */
  run(world: World): Promise<string | undefined>;
}

const keysOf = async (admin: Redis) => (await admin.keys("faults:*")).length;

/** Forged announcements (the shape of real ones, random keys, 60 s), at about `perSecond`. */
async function flood(
  admin: Redis,
  channel: string,
  ms: number,
  perSecond: number,
): Promise<number> {
  const end = at() + ms;
  let sent = 0;
  const batch = Math.max(1, Math.round(perSecond / 100));
  while (at() < end) {
    const pipeline = admin.pipeline();
    for (let i = 0; i < batch; i += 1) {
      const until = Date.now() + 60_000;
      const e = { until, limit: "forged", limitSource: "option", status: 429 };
      pipeline.publish(
        channel,
        JSON.stringify({ o: "forger", v: 1, k: `forged|${sent + i}`, t: 60_000, e }),
      );
    }
    sent += batch;
    await pipeline.exec().catch(() => {});
    await sleep(10);
  }
  return sent;
}

export function faults(short: boolean): Fault[] {
  const FAULT_MS = short ? 2000 : 3000;
  const RESETS_MS = short ? 6000 : 20_000;
  const FLOOD_PER_S = 20_000;
  return [
    {
      name: `SIGSTOP ${FAULT_MS / 1000} s`,
      run: async ({ redis }) => {
        redis.signal("SIGSTOP");
        await sleep(FAULT_MS);
        redis.signal("SIGCONT");
        return undefined;
      },
    },
    {
      name: "kill -9, back after 2 s",
      run: async ({ redis }) => {
        await redis.kill(false);
        await sleep(2000);
        await redis.start();
        return undefined;
      },
    },
    {
      name: "restart empty",
      run: async ({ redis }) => {
        await redis.kill(true);
        await redis.start();
        return undefined;
      },
    },
    {
      name: `CLIENT PAUSE ${FAULT_MS / 1000} s`,
      run: async ({ admin }) => {
        await admin.call("CLIENT", "PAUSE", String(FAULT_MS), "ALL");
        await sleep(FAULT_MS);
        return undefined;
      },
    },
    {
      // Under the store's 200 ms command timeout: slow, never taken for down.
      name: `proxy +200 ms, ${FAULT_MS / 1000} s`,
      run: async ({ proxy }) => {
        proxy.delayMs = 200;
        await sleep(FAULT_MS);
        proxy.delayMs = 0;
        return undefined;
      },
    },
    {
      // Over the store's 200 ms command timeout: every command times out, Redis is taken for
      // down, and the guard's breaker skips it until a probe gets an answer in time.
      name: `proxy +400 ms (over the 200 ms command timeout), ${FAULT_MS / 1000} s`,
      run: async ({ proxy }) => {
        proxy.delayMs = 400;
        await sleep(FAULT_MS);
        proxy.delayMs = 0;
        return undefined;
      },
    },
    {
      name: `proxy frozen ${FAULT_MS / 1000} s`,
      run: async ({ proxy }) => {
        proxy.freeze(true);
        await sleep(FAULT_MS);
        proxy.freeze(false);
        return undefined;
      },
    },
    {
      name: `subscribers blackholed ${(FAULT_MS * 2) / 1000} s`,
      run: async ({ proxy }) => {
        proxy.blackholeSubscribers(true);
        await sleep(FAULT_MS * 2);
        proxy.blackholeSubscribers(false);
        return undefined;
      },
    },
    {
      name: "proxy reset",
      run: async ({ proxy }) => {
        proxy.reset();
        await sleep(500);
        return undefined;
      },
    },
    {
      name: `connection resets, 5 % each per 100 ms, ${RESETS_MS / 1000} s`,
      run: async ({ proxy }) => {
        const end = at() + RESETS_MS;
        while (at() < end) {
          proxy.resetSome(0.05);
          await sleep(100);
        }
        return undefined;
      },
    },
    {
      name: "maxmemory allkeys-lru",
      run: async ({ admin }) => {
        const before = await keysOf(admin);
        const info = String(await admin.info("memory"));
        const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
        await admin.config("SET", "maxmemory-policy", "allkeys-lru");
        await admin.config("SET", "maxmemory", String(used + 2 * 1024 * 1024));
        const filler = "x".repeat(1024);
        const end = at() + FAULT_MS;
        for (let i = 0; at() < end; i += 1) {
          const pipeline = admin.pipeline();
          for (let j = 0; j < 200; j += 1) pipeline.set(`filler:${i}:${j}`, filler);
          await pipeline.exec().catch(() => {});
          await sleep(20);
        }
        const after = await keysOf(admin);
        await admin.config("SET", "maxmemory", "0");
        await admin.config("SET", "maxmemory-policy", "noeviction");
        return `cooldown keys ${before} → ${after}`;
      },
    },
    {
      name: `maxmemory noeviction, full (every write refused) ${FAULT_MS / 1000} s`,
      run: async ({ admin }) => {
        await admin.config("SET", "maxmemory-policy", "noeviction");
        await admin.config("SET", "maxmemory", "1");
        await sleep(FAULT_MS);
        await admin.config("SET", "maxmemory", "0");
        return undefined;
      },
    },
    {
      name: "FLUSHALL",
      run: async ({ admin }) => {
        const before = await keysOf(admin);
        await admin.flushall();
        return `keys ${before} → 0`;
      },
    },
    {
      name: `one replica started 30 s fast, set right by NTP after ${FAULT_MS / 1000} s`,
      run: async (world) => {
        world.replicas[0]?.child.kill("SIGKILL");
        await world.respawn(0, 30_000);
        await sleep(FAULT_MS);
        // The correction: its wall clock is right again; its time origin stays as it started.
        await world.replicas[0]?.ask({ clock: 0 });
        return undefined;
      },
    },
    {
      name: `clock −20 s in one replica, ${FAULT_MS / 1000} s`,
      run: async ({ replicas }) => {
        await replicas[0]?.ask({ clock: -20_000 });
        await sleep(FAULT_MS);
        await replicas[0]?.ask({ clock: 0 });
        return undefined;
      },
    },
    {
      name: `PUBLISH flood, ${FLOOD_PER_S / 1000}k forged announcements/s, ${FAULT_MS / 1000} s`,
      run: async ({ admin, channel }) => {
        const sent = await flood(admin, channel, FAULT_MS, FLOOD_PER_S);
        return `${sent} sent`;
      },
    },
    {
      name: "a replica killed mid-flight (kill -9), a new one in its place",
      run: async (world) => {
        const last = world.replicas.length - 1;
        world.replicas[last]?.child.kill("SIGKILL");
        await world.respawn(last);
        return undefined;
      },
    },
  ];
}
