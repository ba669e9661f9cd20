// The Redis clients the store is tested with, each made the way its users make it.

import { Redis } from "ioredis";
import { Valkey } from "iovalkey";
import { createClient as createClientV6 } from "redis";
import { createClient as createClientV4 } from "redis4";
import { afterAll, beforeAll } from "vitest";
import type { RedisLikeClient } from "../../src/index.js";
import { hasRedisServer, startRedisServer, userWithoutScripts } from "../helpers/redis.js";

export const CLIENT_KINDS = ["ioredis", "iovalkey", "node-redis 6", "node-redis 4"] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export interface TestClient {
  client: RedisLikeClient;
  /** A raw command, for setting up and inspecting what the store did. */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

export async function connect(kind: ClientKind, url: string): Promise<TestClient> {
  if (kind === "ioredis" || kind === "iovalkey") {
    const client = kind === "ioredis" ? new Redis(url) : new Valkey(url);
    client.on("error", () => {}); // reconnects are reported here; the store reports its own
    return {
      client,
      command: (name, ...args) => client.call(name, ...args),
      close: async () => void client.disconnect(),
    };
  }
  const client =
    kind === "node-redis 6"
      ? createClientV6({ url })
      : (createClientV4({ url }) as unknown as ReturnType<typeof createClientV6>);
  client.on("error", () => {});
  await client.connect();
  return {
    client: client as unknown as RedisLikeClient,
    command: (...args) => client.sendCommand(args),
    close: async () => {
      await client.disconnect().catch(() => {});
    },
  };
}

/** The file's throwaway Redis: its URL, a user's that may not run scripts, an ioredis admin. */
export interface FileRedis {
  url: string;
  noScripts: string;
  admin: TestClient;
}

/**
 * Starts a throwaway Redis before the file's tests and stops it after them (nothing, where no
 * redis-server is installed); its fields are set once the tests run.
 */
export function redisForFile(): FileRedis {
  const file = { url: "", noScripts: "" } as FileRedis;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (!hasRedisServer) return;
    const server = await startRedisServer();
    stop = server.stop;
    file.url = server.url;
    file.admin = await connect("ioredis", server.url);
    file.noScripts = await userWithoutScripts(file.admin, server.url);
  });
  afterAll(async () => {
    await file.admin?.close();
    await stop?.();
  });
  return file;
}
