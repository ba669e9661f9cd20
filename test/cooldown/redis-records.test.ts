// Reading a page of the index's records with their keys' TTLs (src/cooldown/redis-records.ts):
// the records are data anyone with access to Redis may write, so whatever they hold (newlines
// anywhere, no newline, text of any script, records far too long), the page the script gives is
// the one the commands without it give, and the one the rule says: the key is what comes before
// the last newline, a record longer than the view could take is not looked into, and a record
// whose key is gone is left out.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RedisCommands } from "../../src/cooldown/redis-client.js";
import { redisCommands } from "../../src/cooldown/redis-client.js";
import { type RecordPage, recordReader } from "../../src/cooldown/redis-records.js";
import { MAX_ENTRY_CHARACTERS } from "../../src/cooldown/redis-view.js";
import { hasRedisServer } from "../helpers/redis.js";
import { CLIENT_KINDS, connect, redisForFile } from "./clients.js";

const file = redisForFile();

const LONGEST = 2 * MAX_ENTRY_CHARACTERS + 1;
const untimed = <T>(pending: Promise<T>) => pending;

/** What the rule says a page of `records` holds, given which keys exist. */
function expected(records: string[], exists: (key: string) => boolean) {
  const page: { keys: string[]; texts: string[] } = { keys: [], texts: [] };
  for (const one of records) {
    const bar = one.lastIndexOf("\n");
    if (one.length > LONGEST || bar === -1 || !exists(one.slice(0, bar))) continue;
    page.keys.push(one.slice(0, bar));
    page.texts.push(one.slice(bar + 1));
  }
  return page;
}

const withoutTime = ({ keys, texts, ttls }: RecordPage) => ({
  keys,
  texts,
  // The TTLs counted down between the two reads: only what they say is compared.
  ttls: ttls.map((ttl) => (ttl === -1 ? "none" : ttl > 0 && ttl <= 60_000 ? "set" : ttl)),
});

// A record's parts: text with newlines and characters of every width (no lone surrogates: a
// client sends those as U+FFFD, so no one can write them to Redis as they are).
const part = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom("\n", "\n\n", "search|u1", '{"until":1}', "界", "\r\n", ""),
);
const record = fc.array(part, { maxLength: 5 }).map((parts) => parts.join(""));

describe.skipIf(!hasRedisServer)("a page of the index's records", () => {
  for (const kind of CLIENT_KINDS) {
    it(`is the same by script and without one, and what the rule says, whatever the records hold (${kind})`, async () => {
      const scripted = await connect(kind, file.url);
      const plain = await connect(kind, file.noScripts);
      const byScript = redisCommands(scripted.client);
      const byTransaction = redisCommands(plain.client);
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(record, fc.constantFrom("none", "ttl", "gone")), { maxLength: 12 }),
          async (rows) => {
            run += 1;
            const prefix = `records:${kind}:${run}:`;
            const bucket = `${prefix}log:1`;
            const live = new Set<string>();
            for (const [one, state] of rows) {
              const bar = one.lastIndexOf("\n");
              if (bar === -1 || state === "gone") continue;
              const key = one.slice(0, bar);
              live.add(key);
              if (state === "ttl")
                await file.admin.command("SET", prefix + key, "x", "PX", "60000");
              else await file.admin.command("SET", prefix + key, "x");
            }
            if (rows.length > 0)
              await file.admin.command("RPUSH", bucket, ...rows.map(([one]) => one));
            const stop = rows.length - 1;
            const one = await recordReader(byScript, prefix, untimed)(bucket, 0, stop);
            const other = await recordReader(byTransaction, prefix, untimed)(bucket, 0, stop);
            expect(withoutTime(one)).toEqual(withoutTime(other));
            const rule = expected(
              rows.map(([one]) => one),
              (key) => live.has(key),
            );
            expect({ keys: one.keys, texts: one.texts }).toEqual(rule);
          },
        ),
        { numRuns: 40 },
      );
      await scripted.close();
      await plain.close();
    });
  }

  it("a record longer than the view could take is not looked into, by script or without one, whatever its characters", async () => {
    const prefix = `records:long:${Math.random()}:`;
    const bucket = `${prefix}log:1`;
    const key = "search|u1";
    await file.admin.command("SET", prefix + key, "x", "PX", "60000");
    const fits = `${key}\n${"a".repeat(LONGEST - key.length - 1)}`;
    // One code unit more; and as long in three-byte characters (as many code units, thrice the bytes).
    const tooLong = `${fits}a`;
    const wide = `${key}\n${"界".repeat(LONGEST - key.length - 1)}`;
    await file.admin.command("RPUSH", bucket, fits, tooLong, wide);
    for (const address of [file.url, file.noScripts]) {
      const client = await connect("ioredis", address);
      const page = await recordReader(redisCommands(client.client), prefix, untimed)(bucket, 0, 2);
      expect(page.texts.map((text) => text.length)).toEqual([
        LONGEST - key.length - 1,
        LONGEST - key.length - 1,
      ]);
      await client.close();
    }
  });
});

describe("when the script gets no answer", () => {
  it("rejects as any command does, and still asks by script next time (no answer is no refusal of scripts)", async () => {
    const asked: string[] = [];
    let answer = false;
    const commands = {
      eval: async () => {
        asked.push("eval");
        if (!answer) throw new Error("Connection is closed.");
        return ["search|u1", '{"until":1}', 5_000];
      },
      command: async () => {
        asked.push("lrange");
        return [];
      },
      multi: async () => {
        asked.push("multi");
        return [];
      },
    } as unknown as RedisCommands;
    const read = recordReader(commands, "p:", untimed);
    await expect(read("p:log:1", 0, 999)).rejects.toThrow("Connection is closed.");
    answer = true;
    const page = await read("p:log:1", 0, 999);
    expect(asked).toEqual(["eval", "eval"]);
    expect(page.keys).toEqual(["search|u1"]);
    expect(page.ttls).toEqual([5_000]);
  });
});
