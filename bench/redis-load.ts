// A big incident in Redis: how long a RedisCooldownStore takes to load 100,000 active cooldowns,
// the event-loop stalls meanwhile (beside the same probe over a loop doing 1 ms slices of work:
// the machine's floor), an announcement to a full view (10k vs 100k), the heap per entry.
// Alone: node --expose-gc --import tsx bench/redis-load.ts (REDIS_URL, else a throwaway server;
// BENCH_LOAD_ONLY=<part of a name> runs only the loads that match, e.g. `node-redis`, `SCAN`).

import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { RedisView } from "../src/cooldown/redis-view.js";
import { startBenchRedis } from "./redis.js";

type Library = typeof import("../src/index.js");

const ENTRIES = 100_000;
const REPEATS = 3;
const LOAD_GOAL_MS = 500;
const STALL_GOAL_MS = 20;
const TEN_MINUTES = 600_000;

/** What an entry holds, and how it was written: with the index, or keys only (loaded by SCAN). */
const VARIANTS = [
  ["entries as written (limit `search`)", "search", undefined, "index"],
  ["200-character limit names", "l".repeat(200), undefined, "index"],
  ["old layout (keys only, loaded by SCAN)", "search", undefined, "keys"],
  ["200-character messages (older writers, SCAN)", "search", "m".repeat(200), "keys"],
] as const;
type Layout = (typeof VARIANTS)[number][3];

// Written inside Redis, so the benchmark's own process holds no garbage of the setup. With the
// index: each entry's record in its bucket's list (redis-index.ts), and the marker that says the
// index holds every entry.
const FILL = `
local ends, limit, message, indexed = ARGV[3], cjson.encode(ARGV[4]), ARGV[5], ARGV[6] == 'index'
local bucket = math.floor(tonumber(ends) / 5000)
for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  local value = '{"until":' .. ends .. ',"limit":' .. limit .. ',"limitSource":"option","status":429'
  if message ~= '' then value = value .. ',"message":' .. cjson.encode(message) end
  local key = ARGV[4] .. '|' .. string.format('%064x', i)
  redis.call('SET', KEYS[1] .. key, value .. '}', 'PX', ${TEN_MINUTES})
  if indexed then redis.call('RPUSH', KEYS[1] .. 'log:' .. bucket, key .. '\\n' .. value .. '}') end
end
if indexed then
  redis.call('PEXPIRE', KEYS[1] .. 'log:' .. bucket, ${TEN_MINUTES + 5000})
  redis.call('ZADD', KEYS[1] .. 'log', (bucket + 1) * 5000, bucket)
  redis.call('HSET', KEYS[1] .. 'layout', 'index', '1')
end`;
const EMPTY = `
local page = redis.call('SCAN', ARGV[1], 'MATCH', KEYS[1] .. '*', 'COUNT', 10000)
for _, key in ipairs(page[2]) do redis.call('UNLINK', key) end
return page[1]`;

interface Load {
  ms: number;
  /** CPU time of this process meanwhile. */
  cpuMs?: number;
  maxStallMs: number;
  p99StallMs: number;
}

export interface RedisLoadFigures {
  /** `indexed`: loaded from the index; else from the keyspace by SCAN (older writers' layout). */
  loads: { name: string; indexed: boolean; load: Load; floor: Load }[];
  announcementUs: { at10k: number; at100k: number };
  bytesPerEntry: { memory: number; view: number } | undefined;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const gc = (globalThis as { gc?: () => void }).gc;

type FillArgs = [prefix: string, limit: string, message: string | undefined, layout?: Layout];

async function fill(redis: Redis, ...[prefix, limit, message, layout = "index"]: FillArgs) {
  const until = String(Date.now() + TEN_MINUTES);
  for (let start = 1; start <= ENTRIES; start += 10_000) {
    const end = String(start + 9_999);
    await redis.eval(FILL, 1, prefix, String(start), end, until, limit, message ?? "", layout);
  }
}

async function empty(redis: Redis, prefix: string) {
  let cursor = "0";
  do cursor = String(await redis.eval(EMPTY, 1, prefix, cursor));
  while (cursor !== "0");
}

/** The event-loop delay over `run`: the longest stall and the 99th percentile, in ms. */
async function probed(run: () => Promise<void>): Promise<Load> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const t0 = performance.now();
  await run();
  const elapsed = performance.now() - t0;
  histogram.disable();
  return {
    ms: elapsed,
    maxStallMs: histogram.max / 1e6,
    p99StallMs: histogram.percentile(99) / 1e6,
  };
}

const sleep = (delay: number) => new Promise<void>((resolve) => setTimeout(resolve, delay));

/** A store made, until its view is live (Infinity when it is not within 20 s). */
async function loadOnce(lib: Library, client: unknown, prefix: string): Promise<Load> {
  gc?.();
  let store: InstanceType<Library["RedisCooldownStore"]> | undefined;
  let synced = false;
  const cpu = process.cpuUsage();
  const load = await probed(async () => {
    store = new lib.RedisCooldownStore({ client: client as never, prefix });
    const t0 = performance.now();
    while (!store.synced && performance.now() - t0 < 20_000) await sleep(1);
    synced = store.synced;
  });
  const used = process.cpuUsage(cpu);
  await store?.close();
  return {
    ...load,
    ms: synced ? load.ms : Number.POSITIVE_INFINITY,
    cpuMs: (used.user + used.system) / 1000,
  };
}

/** The floor: the same probe over a loop kept as busy (1 ms of work, then a yield) for `ms`. */
async function busyFloor(ms: number): Promise<Load> {
  return probed(async () => {
    const end = performance.now() + Math.min(ms, 5000);
    while (performance.now() < end) {
      const slice = performance.now() + 1;
      while (performance.now() < slice) {}
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
}

/** Per announcement, µs: a full view (`size` entries) offered `count` new keys. */
function announcementCost(size: number): number {
  const view = new RedisView({ maxEntries: size });
  const until = Date.now() + TEN_MINUTES;
  const key = (i: number) => `search|${i.toString(16).padStart(64, "0")}`;
  const entry = `{"until":${until},"limit":"search","limitSource":"option","status":429}`;
  for (let i = 0; i < size; i += 1) view.seeText(key(i), entry, until + 1);
  const count = 20_000;
  const messages = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ o: "other", k: key(size + i), t: TEN_MINUTES, e: JSON.parse(entry) }),
  );
  const t0 = performance.now();
  for (const message of messages) {
    // What the store does with an announcement from another replica.
    const { k, t, e } = JSON.parse(message) as { k: string; t: number; e: unknown };
    view.see(k, e, Date.now() + t, false);
  }
  return ((performance.now() - t0) * 1000) / count;
}

/** Heap per entry (with --expose-gc): a memory store and a loaded Redis view, 100k entries. */
async function bytesPerEntry(lib: Library, redis: Redis, url: string) {
  if (gc === undefined) return undefined;
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const key = (i: number) => `search|${i.toString(16).padStart(64, "0")}`;
  const memoryBytes = (() => {
    const before = heap();
    const memory = new lib.MemoryCooldownStore();
    const until = Date.now() + TEN_MINUTES;
    for (let i = 0; i < ENTRIES; i += 1) {
      memory.set(
        key(i),
        { until: until + i, limit: "search", limitSource: "option", status: 429 },
        TEN_MINUTES,
      );
    }
    const bytes = (heap() - before) / ENTRIES;
    if (memory.size !== ENTRIES) throw new Error("the memory store dropped entries");
    return bytes;
  })();
  const prefix = `load:${Date.now()}:memory:`;
  await fill(redis, prefix, "search", undefined);
  const client = new Redis(url);
  const before = heap();
  const store = new lib.RedisCooldownStore({ client, prefix });
  while (!store.synced) await sleep(5);
  const viewBytes = (heap() - before) / ENTRIES;
  await store.close();
  client.disconnect();
  await empty(redis, prefix);
  return { memory: memoryBytes, view: viewBytes };
}

export async function benchRedisLoad(
  lib: Library,
  url: string | undefined,
): Promise<RedisLoadFigures | undefined> {
  if (url === undefined) return undefined;
  const redis = new Redis(url);
  const clients = {
    ioredis: () => new Redis(url),
    "node-redis": async () => {
      const client = createClient({ url });
      await client.connect();
      return client;
    },
  };
  const runs: [string, keyof typeof clients, (typeof VARIANTS)[number]][] = [
    ...VARIANTS.map(
      (variant) => [variant[0], "ioredis", variant] as [string, "ioredis", typeof variant],
    ),
    [`${VARIANTS[0][0]}, node-redis`, "node-redis", VARIANTS[0]],
  ];
  console.log(
    `\nRedis view: ${ENTRIES.toLocaleString("en")} active cooldowns loaded by a new store (median of ${REPEATS}); event-loop delay meanwhile, and over a loop kept as busy as long (this machine's floor)`,
  );
  const loads: RedisLoadFigures["loads"] = [];
  const only = process.env.BENCH_LOAD_ONLY;
  for (const [name, kind, [, limit, message, layout]] of runs) {
    if (only !== undefined && !name.includes(only)) continue;
    const prefix = `load:${Date.now()}:`;
    await fill(redis, prefix, limit, message, layout);
    const client = await clients[kind]();
    const samples: Load[] = [];
    const floors: Load[] = [];
    for (let i = 0; i < REPEATS; i += 1) {
      const load = await loadOnce(lib, client, prefix);
      samples.push(load);
      floors.push(await busyFloor(load.ms));
    }
    if ("disconnect" in client && typeof client.disconnect === "function")
      await client.disconnect();
    await empty(redis, prefix);
    const pick = (list: Load[]): Load => ({
      ms: median(list.map((s) => s.ms)),
      cpuMs: median(list.map((s) => s.cpuMs ?? Number.NaN)),
      maxStallMs: median(list.map((s) => s.maxStallMs)),
      p99StallMs: median(list.map((s) => s.p99StallMs)),
    });
    const load = pick(samples);
    const floor = pick(floors);
    loads.push({ name, indexed: layout === "index", load, floor });
    console.log(
      `  ${name.padEnd(48)}${ms(load.ms).padStart(10)} (CPU ${ms(load.cpuMs ?? Number.NaN)})   stall max ${ms(load.maxStallMs)}, p99 ${ms(load.p99StallMs)}   (busy-loop floor: max ${ms(floor.maxStallMs)}, p99 ${ms(floor.p99StallMs)})`,
    );
  }
  const announcementUs = { at10k: announcementCost(10_000), at100k: announcementCost(100_000) };
  console.log(
    `  an announcement to a full view: ${announcementUs.at10k.toFixed(2)} µs at 10k entries, ${announcementUs.at100k.toFixed(2)} µs at 100k`,
  );
  const bytes = await bytesPerEntry(lib, redis, url);
  console.log(
    bytes === undefined
      ? "  heap per entry: run with node --expose-gc to measure"
      : `  heap per entry (100k, 64-hex partitions): memory store ${bytes.memory.toFixed(0)} B, Redis view ${bytes.view.toFixed(0)} B`,
  );
  redis.disconnect();
  const figures = { loads, announcementUs, bytesPerEntry: bytes };
  for (const line of redisLoadTargets(figures)) console.log(line);
  return figures;
}

/** The lines for the targets: each goal met or not. */
function redisLoadTargets(figures: RedisLoadFigures | undefined): string[] {
  if (figures === undefined) return [];
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  const lines: string[] = [];
  for (const { name, indexed, load } of figures.loads) {
    if (!indexed) {
      // What a mixed fleet costs while it lasts; the goal is for the layout of this release.
      lines.push(
        `  ${`Redis view, ${name}: ${load.ms.toFixed(0)} ms, stall max ${load.maxStallMs.toFixed(1)}`.padEnd(90)}the fallback, not a goal`,
      );
      continue;
    }
    lines.push(
      `  ${`Redis view, ${name}: 100k load <= ${LOAD_GOAL_MS} ms (${load.ms.toFixed(0)})`.padEnd(90)}${met(load.ms <= LOAD_GOAL_MS)}`,
      `  ${`Redis view, ${name}: no stall over ${STALL_GOAL_MS} ms (max ${load.maxStallMs.toFixed(1)})`.padEnd(90)}${met(load.maxStallMs <= STALL_GOAL_MS)}`,
    );
  }
  const { at10k, at100k } = figures.announcementUs;
  lines.push(
    `  ${`Redis view full: O(1) per announcement (100k within 2× of 10k: ${at100k.toFixed(2)} vs ${at10k.toFixed(2)} µs)`.padEnd(90)}${met(at100k <= 2 * at10k)}`,
  );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // BENCH_LIB: another copy of the library (a checkout of the base commit) for before → after.
  const lib = (await import(process.env.BENCH_LIB ?? "../src/index.js")) as Library;
  const redis = await startBenchRedis();
  if (redis === undefined) console.log("no redis-server here: nothing to measure");
  await benchRedisLoad(lib, redis?.url);
  redis?.stop();
  process.exit(0);
}
