// Loading a view from the index (src/cooldown/redis-loader.ts): each record ends no later than
// its key's own TTL, and a record whose key is gone is left out, whether Redis runs the script
// that reads the TTLs (one EVAL a page of records) or refuses scripts (a transaction of PTTLs
// instead). With every client family.

import { describe, expect, it } from "vitest";
import { monotonicNow } from "../../src/cooldown/clock.js";
import { type CooldownEntry, RedisCooldownStore } from "../../src/index.js";
import { eventually } from "../helpers/http-server.js";
import { hasRedisServer } from "../helpers/redis.js";
import { CLIENT_KINDS, connect, redisForFile } from "./clients.js";

const file = redisForFile();

/** Calls of `name` Redis counted since it started. */
async function calls(name: string): Promise<number> {
  const stats = String(await file.admin.command("INFO", "commandstats"));
  return Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

const entry = (ms: number): CooldownEntry => ({
  until: Date.now() + ms,
  limit: "search",
  limitSource: "option",
  status: 429,
});

describe.skipIf(!hasRedisServer)("a view loaded from the index", () => {
  for (const kind of CLIENT_KINDS) {
    for (const [label, scripts] of [
      ["a Redis that runs scripts", true],
      ["a Redis that refuses scripts", false],
    ] as const) {
      it(`caps each record at its key's TTL and leaves out a record whose key is gone (${kind}, ${label})`, async () => {
        const prefix = `loader:${kind}:${scripts}:${Math.random()}:`;
        await file.admin.command("HSET", `${prefix}layout`, "index", "1");
        // A writer whose clock is 30 s fast: its 2 s throttle reads as 32 s in the record.
        const ahead = new RedisCooldownStore({
          client: file.admin.client,
          prefix,
          liveView: false,
          now: () => Date.now() + 30_000,
        });
        await ahead.set("search|u1", entry(2_000), 2_000);
        await ahead.set("search|u2", entry(60_000), 60_000);
        await ahead.close();
        // u2's key is gone (evicted, or deleted): its record alone is no cooldown.
        await file.admin.command("DEL", `${prefix}search|u2`);
        const reader = await connect(kind, scripts ? file.url : file.noScripts);
        const evals = await calls("eval");
        const loaded = new RedisCooldownStore({ client: reader.client, prefix });
        expect(await eventually(() => loaded.synced, 5_000)).toBe(true);
        const viewed = loaded.get("search|u1") as CooldownEntry;
        expect(viewed.until - monotonicNow()).toBeLessThanOrEqual(2_000);
        expect(loaded.get("search|u2")).toBeUndefined();
        // The records' TTLs by one script a page when scripts run: the two ends are a minute
        // apart, so in two buckets, two pages.
        if (scripts) expect(await calls("eval")).toBe(evals + 2);
        await loaded.close();
        await reader.close();
      });
    }
  }
});
