// A Redis for the benchmark: REDIS_URL if set, else a throwaway redis-server on 127.0.0.1
// (started the way the tests start theirs).

import { hasRedisServer, startRedisServer } from "../test/helpers/redis.js";

export async function startBenchRedis(): Promise<{ url: string; stop: () => void } | undefined> {
  if (process.env.REDIS_URL !== undefined) return { url: process.env.REDIS_URL, stop: () => {} };
  if (!hasRedisServer) return undefined;
  const redis = await startRedisServer();
  return { url: redis.url, stop: () => void redis.stop() };
}
