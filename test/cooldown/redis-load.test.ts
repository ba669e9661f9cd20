// Loading a RedisCooldownStore's view in a big incident: many pages, values that are no entry,
// a Redis that refuses scripts (read with SCAN + MGET instead), and long limit names that must
// still fit the view's bound. With every client family.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisView } from "../../src/cooldown/redis-view.js";
import { type CooldownEntry, RedisCooldownStore } from "../../src/index.js";
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
let noScripts = "";

beforeAll(async () => {
  if (!hasRedisServer) return;
  redis = await startRedisServer();
  const admin = await connect("ioredis", redis.url);
  noScripts = await userWithoutScripts(admin, redis.url);
  await admin.close();
});

afterAll(async () => {
  await redis?.stop();
});

const ENTRIES = 12_000;
const key = (i: number) => `search|${i.toString(16).padStart(64, "0")}`;

async function plant(client: TestClient, prefix: string): Promise<void> {
  const until = Date.now() + 60_000;
  await client.command(
    "EVAL",
    `for i = 0, ${ENTRIES - 1} do
       redis.call('SET', KEYS[1] .. 'search|' .. string.format('%064x', i),
         '{"until":' .. ARGV[1] .. ',"limit":"search","limitSource":"option","status":429}', 'PX', 60000)
     end
     redis.call('RPUSH', KEYS[1] .. 'search|a-list', 'x')
     redis.call('SET', KEYS[1] .. 'search|not-json', '{nope')`,
    "1",
    prefix,
    String(until),
  );
}

describe.skipIf(!hasRedisServer).each(CLIENT_KINDS)(
  "loading a big view with %s",
  (kind: ClientKind) => {
    it.each([
      ["with the load script", false],
      ["from a Redis that refuses scripts (SCAN + MGET)", true],
    ])(
      "%s: every entry of several pages, past a list and a value that is no entry",
      async (_name, refused) => {
        const admin = await connect(kind, redis?.url ?? "");
        const prefix = `load:${kind}:${String(refused)}:`;
        await plant(admin, prefix);
        const client = await connect(kind, refused ? noScripts : (redis?.url ?? ""));
        if (refused)
          await expect(client.command("EVAL", "return 1", "0")).rejects.toThrow(
            /NOPERM|permission/i,
          );
        const errors: unknown[] = [];
        const store = new RedisCooldownStore({ client: client.client, prefix });
        hearStore(store, errors);
        expect(await eventually(() => store.synced, 10_000)).toBe(true);
        for (const i of [0, 4_999, 5_000, ENTRIES - 1]) {
          const read = store.get(key(i)) as CooldownEntry | undefined;
          expect(read?.limit).toBe("search");
        }
        // Held as invalid (answered as such, for the guard to ignore and report), never a throw.
        expect(typeof store.get("search|not-json")).toBe("string");
        expect(store.get("search|a-list")).toBeUndefined();
        expect(errors.map(String)).toEqual([]);
        await store.close();
        await client.close();
        await admin.close();
      },
    );
  },
);

describe("the view's bound", () => {
  it("holds 100,000 entries with 200-character limit names (the scope is in the key too)", () => {
    const view = new RedisView({ keyPrefix: "mcp-upstream-throttle:cooldown:" });
    const limit = "l".repeat(200);
    const until = Date.now() + 60_000;
    for (let i = 0; i < 100_000; i += 1) {
      const k = `${limit}|${i.toString(16).padStart(64, "0")}`;
      view.see(k, { until, limit, limitSource: "option", status: 429 }, until, false);
    }
    expect(view.overflowed).toBe(false);
    expect(view.size).toBe(100_000);
  });

  it("a flood of keys in two-byte characters is counted two bytes a character, and turns the view off at its bound", () => {
    const view = new RedisView({ maxBytes: 1_000_000 });
    const until = Date.now() + 60_000;
    let taken = 0;
    for (let i = 0; i < 10_000 && !view.overflowed; i += 1) {
      const k = `搜索|${"界".repeat(200)}${i}`;
      if (view.see(k, { until, limit: "搜索", limitSource: "option", status: 429 }, until, false))
        taken += 1;
    }
    expect(view.overflowed).toBe(true);
    expect(view.bytes).toBeLessThanOrEqual(1_000_000);
    // 240 B + 2 × ~205 characters each: about 1,500 of them fit in 1 MB, not the 2,200 of one byte a character.
    expect(taken).toBeLessThan(1_700);
  });
});
