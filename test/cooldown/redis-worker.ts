// One Node process of the cross-process test: one upstream call through throttledFetch with a
// Redis cooldown store. Prints what happened as JSON on stdout.

import { Redis } from "ioredis";
import { isUpstreamRateLimitedError, RedisCooldownStore, throttledFetch } from "../../src/index.js";

const [redisUrl, upstreamUrl] = process.argv.slice(2);
const client = new Redis(redisUrl ?? "");
const guarded = throttledFetch({
  limit: "search",
  cooldown: {
    store: new RedisCooldownStore({ client, announce: false }),
    partitionSecret: "a shared secret of the test replicas",
  },
});
try {
  const response = await guarded(upstreamUrl ?? "", {
    headers: { authorization: "Bearer shared-user" },
  });
  console.log(JSON.stringify({ outcome: "response", status: response.status }));
} catch (error) {
  if (!isUpstreamRateLimitedError(error)) throw error;
  console.log(
    JSON.stringify({
      outcome: "throttle",
      delaySource: error.delaySource,
      retryAfterMs: error.retryAfterMs,
    }),
  );
} finally {
  client.disconnect();
}
