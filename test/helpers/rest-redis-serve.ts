// The REST bridge (rest-redis.ts) as a process of its own, for what runs outside the tests: the
// guide's Workers under Miniflare (.ci/runtimes.sh), or `wrangler dev` against a local Redis.
//   tsx test/helpers/rest-redis-serve.ts [redis://127.0.0.1:6379]   (else REDIS_URL)
// Prints the two variables `@upstash/redis`'s `Redis.fromEnv` reads, one a line, as `NAME=value`,
// and serves until SIGTERM or SIGINT.

import { startRestRedisBridge } from "./rest-redis.js";

const redisUrl = process.argv[2] ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const bridge = await startRestRedisBridge(redisUrl);
await bridge.command("PING"); // fails here, not at the first request, when no Redis answers
process.stdout.write(
  `UPSTASH_REDIS_REST_URL=${bridge.url}\nUPSTASH_REDIS_REST_TOKEN=${bridge.token}\n`,
);
const stop = () => void bridge.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
