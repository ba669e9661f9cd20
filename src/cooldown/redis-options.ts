// The options of a RedisCooldownStore, as its users pass them.

import { bool } from "../internal/options.js";
import type { RedisLikeClient } from "./redis-client.js";

/** Options of `RedisCooldownStore`: the client, and how it is used. */
export interface RedisCooldownStoreOptions {
  /**
   * A client: ioredis (`new Redis(url)`), iovalkey, or node-redis v4+ (`createClient()`,
   * connected).
   */
  client: RedisLikeClient;
  /**
   * Prefix of every key, and of the announcement channel.
   * @default "mcp-upstream-throttle:cooldown:"
   */
  prefix?: string | undefined;
  /**
   * Keep a live in-process view of the active cooldowns, fed by an announcement of every
   * throttle to every replica (one extra connection, for the subscription), so a guarded call
   * needs no round trip. `false`: no announcements and no view; every guarded call asks Redis
   * (`GET`). Writes reach Redis either way. @default true
   */
  liveView?: boolean | undefined;
  /**
   * The wall clock the replicas share (epoch milliseconds, kept by NTP): ends are written and
   * read on it, so a replica whose clock is corrected agrees with the others from then on.
   * Inside the process, ends are kept on a monotonic clock: a step changes no live cooldown.
   * @default Date.now
   */
  now?: (() => number) | undefined;
}

/** `liveView`, checked: on unless turned off. */
export function liveViewOption(options: RedisCooldownStoreOptions): boolean {
  return bool("liveView", options.liveView, true);
}
