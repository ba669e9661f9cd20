// Attack: someone who can read the store (a shared Redis) recovers a credential from a key by
// hashing a dictionary of candidates. Partitions are keyed hashes (HMAC-SHA-256): without the
// key, a dictionary matches nothing. And a store shared between processes needs the key.

import { execFile } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CooldownEntry,
  type CooldownStore,
  RedisCooldownStore,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { throttleOf } from "./helpers.js";

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startServer((_req, res) => {
    res.writeHead(429, { "retry-after": "30" });
    res.end();
  });
});
afterAll(() => upstream.close());

const DICTIONARY = ["password", "hunter2", "letmein", "correct-horse", "admin", "dragon"];
const basic = (password: string) => `Basic ${Buffer.from(`alice:${password}`).toString("base64")}`;

/** The partition a throttle with this Authorization header is stored under. */
async function partitionOf(options: { partitionSecret?: string; shared?: boolean }, auth: string) {
  const keys: string[] = [];
  const store: CooldownStore = {
    shared: options.shared ?? false,
    get: () => undefined,
    set: (key: string, _entry: CooldownEntry) => void keys.push(key),
  };
  const api = throttledFetch({
    limit: "search",
    cooldown: {
      store,
      ...(options.partitionSecret ? { partitionSecret: options.partitionSecret } : {}),
    },
  });
  await throttleOf(api(upstream.url, { headers: { authorization: auth } }));
  return keys[0]?.split("|")[1] ?? "";
}

describe("partition keys cannot be reversed with a dictionary", () => {
  it("a six-word dictionary does not find a Basic password in the stored key", async () => {
    const partition = await partitionOf({}, basic("hunter2"));
    expect(partition).toMatch(/^[0-9a-f]{64}$/);
    for (const word of DICTIONARY) {
      // The identity line names the Basic password itself, the header family no part of it.
      for (const line of [`secret:=${word}`, `header:authorization=${basic(word)}`])
        expect(createHash("sha256").update(line).digest("hex")).not.toBe(partition);
      expect(
        createHash("sha256")
          .update(`authorization:${basic(word)}`)
          .digest("hex"),
      ).not.toBe(partition);
    }
  });

  it("is an HMAC-SHA-256 under partitionSecret: the same on every replica, different per secret", async () => {
    const secret = "replica-shared-secret-0123456789";
    const a = await partitionOf({ partitionSecret: secret, shared: true }, basic("hunter2"));
    const b = await partitionOf({ partitionSecret: secret, shared: true }, basic("hunter2"));
    const other = await partitionOf(
      { partitionSecret: `${secret}!`, shared: true },
      basic("hunter2"),
    );
    expect(a).toBe(b);
    expect(a).not.toBe(other);
    const expected = createHmac("sha256", secret).update("secret:=hunter2").digest("hex");
    expect(a).toBe(expected);
  });

  it("without partitionSecret, one random key per process: every wrapper in it agrees, another process does not", async () => {
    const here = await partitionOf({}, basic("hunter2"));
    expect(await partitionOf({}, basic("hunter2"))).toBe(here);
    expect(here).not.toBe(await partitionOf({}, basic("hunter3")));
    // The same code in a second process: its own key, so another partition for the same password.
    // Asynchronously: the upstream it calls is served by this process.
    const child = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("./partition-of.ts", import.meta.url)),
        upstream.url,
      ],
      { encoding: "utf8", timeout: 15_000 },
    );
    const there = child.stdout.trim();
    expect(there).toMatch(/^[0-9a-f]{64}$/);
    expect(there).not.toBe(here);
  });
});

describe("a store shared between processes needs partitionSecret", () => {
  const shared: CooldownStore = { get: () => undefined, set: () => {} };

  it.each([
    ["throttledFetch", () => throttledFetch({ cooldown: { store: shared } })],
    ["throttleInterceptor", () => throttleInterceptor({ cooldown: { store: shared } })],
    [
      "withUpstreamThrottle",
      () => withUpstreamThrottle(async () => ({}), { limit: "x", cooldown: { store: shared } }),
    ],
  ])("%s refuses it at construction, saying what to pass", (_name, build) => {
    expect(build).toThrow(TypeError);
    expect(build).toThrow(/`cooldown.partitionSecret`/);
  });

  it("a RedisCooldownStore is shared", () => {
    const client = new Redis({ lazyConnect: true });
    const store = new RedisCooldownStore({ client, liveView: false });
    expect(() => throttledFetch({ cooldown: { store } })).toThrow(/`cooldown.partitionSecret`/);
    expect(() =>
      throttledFetch({ cooldown: { store, partitionSecret: "0123456789abcdef" } }),
    ).not.toThrow();
    expect(() =>
      throttledFetch({ cooldown: { store, partition: () => "tenant-1" } }),
    ).not.toThrow();
    client.disconnect();
  });

  it("a partitionSecret shorter than 16 characters is refused", () => {
    expect(() => throttledFetch({ cooldown: { partitionSecret: "short" } })).toThrow(
      /`cooldown.partitionSecret` must be a string of at least 16 characters/,
    );
  });
});
