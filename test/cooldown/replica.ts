// One replica of an MCP server, in its own Node process: a throttledFetch with a Redis cooldown,
// driven by its parent over IPC. `call` sends one upstream request; `synced` asks whether the
// store's in-process view is live.

import { isUpstreamRateLimitedError, RedisCooldownStore, throttledFetch } from "../../src/index.js";
import { type ClientKind, connect } from "./clients.js";

const [redisUrl = "", kind = "ioredis", announce = "true", prefix = ""] = process.argv.slice(2);
const redis = await connect(kind as ClientKind, redisUrl);
const store = new RedisCooldownStore({
  client: redis.client,
  liveView: announce === "true",
  prefix,
});
const guarded = throttledFetch({
  limit: "search",
  cooldown: { store, partitionSecret: "a shared secret of the test replicas" },
});

process.on(
  "message",
  async (message: { id: number; call?: string; synced?: true; close?: true }) => {
    const reply = (value: object) => process.send?.({ id: message.id, ...value });
    if (message.synced) return reply({ synced: store.synced });
    if (message.close) {
      await store.close();
      await redis.close();
      reply({ closed: true });
      process.exit(0);
    }
    try {
      const response = await guarded(message.call ?? "", {
        headers: { authorization: "Bearer shared-user" },
      });
      reply({ outcome: "response", status: response.status });
    } catch (error) {
      if (!isUpstreamRateLimitedError(error))
        return reply({ outcome: "error", error: String(error) });
      reply({
        outcome: "throttle",
        delaySource: error.delaySource,
        retryAfterMs: error.retryAfterMs,
      });
    }
  },
);
process.send?.({ ready: true });
