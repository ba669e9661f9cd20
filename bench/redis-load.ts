// Issue 23 #5: how long a RedisCooldownStore takes to load 100,000 active cooldowns, and the
// longest event-loop stall meanwhile. Needs a redis-server on REDIS_URL (default 127.0.0.1:6401).
//   npx tsx bench/redis-load.ts

import { monitorEventLoopDelay } from "node:perf_hooks";
import { Redis } from "ioredis";
import { RedisCooldownStore } from "../src/index.js";

const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6401");
const prefix = `load:${Date.now()}:`;
const n = 100_000;
for (let s = 0; s < n; s += 5000) {
  const p = client.pipeline();
  const until = Date.now() + 600_000;
  for (let i = s; i < s + 5000; i++)
    p.set(
      `${prefix}search|${i.toString(16).padStart(64, "0")}`,
      JSON.stringify({ until, limit: "search", limitSource: "option", status: 429 }),
      "PX",
      600_000,
    );
  await p.exec();
}
const h = monitorEventLoopDelay({ resolution: 1 });
h.enable();
const t0 = performance.now();
const store = new RedisCooldownStore({ client, prefix });
while (!store.synced) await new Promise((r) => setImmediate(r));
const ms = performance.now() - t0;
h.disable();
console.log(
  `100k active cooldowns loaded in ${ms.toFixed(0)} ms; longest event-loop stall ${(h.max / 1e6).toFixed(1)} ms; p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms`,
);
await store.close();
client.disconnect();
