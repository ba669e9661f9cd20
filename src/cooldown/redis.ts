// Cooldowns shared by every replica of an MCP server, at no cost on the success path. Redis is
// the source of truth; each replica keeps an in-process view of the active cooldowns
// (redis-view.ts), fed by one announcement per throttle (redis-announcements.ts) and loaded whole
// whenever its subscription (re)starts (redis-sync.ts, from the index of redis-index.ts or the
// keyspace, redis-layout.ts). While the view is live a guarded call makes no round trip; while it
// is not, calls ask Redis; Redis known to be down (redis-health.ts) is not waited for.

import { isObject } from "../internal/is-object.js";
import { optionalFunction } from "../internal/options.js";
import { LOCAL_ANSWER } from "./breaker.js";
import { monotonicNow, type WallClock, wallToMonotonic } from "./clock.js";
import { announcement, beat, hear } from "./redis-announcements.js";
import {
  failedFirst,
  type RedisCommands,
  redisCommands,
  type Subscription,
} from "./redis-client.js";
import { fetchEntry } from "./redis-fetch.js";
import { isErrorAnswer, RedisHealth } from "./redis-health.js";
import { type IndexKeys, indexCommands, indexKeys } from "./redis-index.js";
import { Layout } from "./redis-layout.js";
import { ViewLoader } from "./redis-loader.js";
import { liveViewOption, type RedisCooldownStoreOptions } from "./redis-options.js";
import { ViewSync } from "./redis-sync.js";
import { RedisView } from "./redis-view.js";
import type { CooldownEntry, CooldownStore } from "./store.js";
import { storeEventHook } from "./store-events.js";

export type { RedisLikeClient } from "./redis-client.js";
export type { RedisCooldownStoreOptions } from "./redis-options.js";

/** The heartbeat: a probe of Redis, and of the subscription (its own beat must come back). */
const HEARTBEAT_MS = 500;
const SWEEP_EVERY_BEATS = 20;
const FULL = "the cooldown view is full; asking Redis until it has room again";

/**
 * Cooldowns shared by every replica of an MCP server, in Redis (or Valkey). Each replica keeps an
 * in-process view of the active cooldowns, fed by pub/sub, so a guarded call makes no round trip.
 * Give the wrappers the same `partitionSecret` on every replica.
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis";
 * import { RedisCooldownStore, throttledFetch } from "mcp-upstream-throttle";
 *
 * const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
 * const store = new RedisCooldownStore({ client: redis });
 * const github = throttledFetch({
 *   limit: "github",
 *   cooldown: { store, partitionSecret: process.env.COOLDOWN_PARTITION_SECRET! },
 *   onEvent: (event) => event.type === "store-error" && console.warn(event), // every store failure
 * });
 * // On shutdown: await store.close();
 * ```
 */
export class RedisCooldownStore implements CooldownStore {
  /** Always `true`: every replica reads and writes this store. */
  readonly shared = true;
  readonly #commands: RedisCommands;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #origin = Math.random().toString(36).slice(2) + Date.now().toString(36);
  readonly #wall: WallClock;
  readonly #view: RedisView;
  readonly #loader: ViewLoader;
  readonly #announce: boolean;
  readonly #keys: IndexKeys;
  readonly #health: RedisHealth;
  readonly #sync: ViewSync;
  readonly #layout: Layout;
  #beat = 0;
  /** How late the channel delivered our own last beat: others' announcements are as late. */
  #lateMs = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #subscription: Promise<Subscription | undefined> | undefined;

  /** Subscribes to the announcements (with `liveView`) and starts loading the view. */
  constructor(options: RedisCooldownStoreOptions) {
    if (!isObject(options)) {
      throw new TypeError("`options` must be an object with a `client`");
    }
    const client = options.client;
    if (typeof client?.get !== "function" || typeof client.set !== "function") {
      throw new TypeError(
        "`client` must be a Redis client with `get` and `set` (ioredis, iovalkey, node-redis)",
      );
    }
    const prefix = options.prefix ?? "mcp-upstream-throttle:cooldown:";
    if (typeof prefix !== "string" || prefix === "") {
      throw new TypeError("`prefix` must be a non-empty string");
    }
    this.#commands = redisCommands(client);
    this.#prefix = prefix;
    this.#wall = optionalFunction<WallClock>("now", options.now) ?? Date.now;
    this.#view = new RedisView({ keyPrefix: prefix });
    this.#keys = indexKeys(prefix);
    this.#channel = `${prefix}announcements`;
    this.#health = new RedisHealth(storeEventHook(this));
    this.#announce = liveViewOption(options);
    this.#loader = new ViewLoader({
      commands: this.#commands,
      prefix,
      channel: this.#channel,
      keys: this.#keys,
      wall: this.#wall,
      timed: (pending) => this.#health.timed(pending),
      see: (key, text, notAfter, now, offset) => {
        const overflowed = this.#view.overflowed;
        if (this.#view.seeText(key, text, notAfter, now, offset) || overflowed) return;
        this.#health.report(new Error(FULL));
      },
    });
    this.#sync = new ViewSync(this.#health, this.#loader, () => this.#layout);
    this.#layout = new Layout({
      loader: this.#loader,
      report: (error) => this.#health.report(error),
      reload: () => this.#sync.reload(),
      synced: () => this.synced,
      hearingSince: () => this.#sync.hearingSince,
      epoch: () => `${this.#sync.generation}${this.#sync.silent}`,
      closed: () => this.#health.closed,
    });
    if (this.#announce) this.#subscribe();
    this.#timer = setInterval(() => this.#heartbeat(), HEARTBEAT_MS);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Whether the in-process view is live: guarded calls then make no round trip. */
  get synced(): boolean {
    const sync = this.#sync;
    return (
      sync.subscribed && !sync.silent && sync.loaded && this.#health.up && !this.#view.overflowed
    );
  }

  mayHave(scope?: string): boolean {
    // Redis known down: the view answers with what it knew, for scopes it knows.
    if (this.synced || this.#knownDown()) return this.#view.mayHave(scope);
    return true;
  }

  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined> {
    if (this.synced || this.#knownDown()) return this.#view.get(key);
    // `GET` (and the key's TTL), for a call made while the view is not live.
    const timed = <T>(pending: Promise<T>) => this.#health.timed(pending);
    return fetchEntry(this.#commands, timed, this.#prefix, key, {
      known: () => this.#view.get(key),
      offset: () => wallToMonotonic(this.#wall),
    });
  }

  /** What the view holds, asked by the guard while its breaker is open (no I/O). */
  [LOCAL_ANSWER](key: string): CooldownEntry | undefined {
    return this.#view.get(key);
  }

  /**
   * Writes the entry (its key and its record in the index, in one transaction) and announces it,
   * both at once: a write Redis refuses (OOM under `maxmemory`) is still announced, since Redis
   * still takes PUBLISH, and is reported as a `store-error` event (once, until a write goes through).
   */
  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    const now = monotonicNow();
    const until = Math.min(entry.until, now + ttlMs);
    // The end as the other replicas read it: on the wall clock, as it is now.
    const shared = { ...entry, until: until - wallToMonotonic(this.#wall) };
    if (this.#announce) this.#see(key, shared, until, wallToMonotonic(this.#wall));
    // Known down: not waited for; written and announced once Redis answers again.
    if (!this.#health.up || this.#commands.lost()) return this.#health.hold(key, shared, until);
    return this.#write(key, shared, until);
  }

  async #write(key: string, shared: CooldownEntry, until: number): Promise<void> {
    // The time left now, not when the throttle was seen; a write already over is dropped.
    const left = Math.ceil(until - monotonicNow());
    if (left <= 0) return;
    const text = JSON.stringify(shared);
    const write = this.#health.timed(
      this.#commands
        .multi([
          ["SET", this.#prefix + key, text, "PX", String(left)],
          ...indexCommands(this.#keys, [{ key, text, until: shared.until }], this.#wall()),
        ])
        .then(failedFirst),
    );
    const told = this.#announce
      ? this.#health.timed(
          this.#commands.publish(this.#channel, announcement(this.#origin, key, left, shared)),
        )
      : undefined;
    const [written, announced] = await Promise.allSettled([write, told]);
    if (written.status === "rejected") {
      // Refused, but every live view has it: reported here, not a failure of the call's store.
      const refused = told !== undefined && isErrorAnswer(written.reason);
      if (!refused || announced.status === "rejected") throw written.reason;
      this.#health.refused(written.reason);
      return;
    }
    this.#health.wrote();
    if (announced.status === "rejected") throw announced.reason;
  }

  /** Stops the heartbeat and the subscription (its connection). Runs by itself when the client ends. */
  async close(): Promise<void> {
    if (this.#health.closed) return;
    this.#health.closed = true;
    this.#sync.subscribed = false;
    clearInterval(this.#timer);
    const subscription = await this.#subscription;
    await subscription?.close();
  }

  #subscribe(): void {
    this.#subscription = this.#commands
      .subscribe(this.#channel, {
        message: (message) => this.#heard(message),
        up: () => this.#sync.up(),
        down: (error) => this.#sync.down(error),
      })
      .catch((error: unknown) => {
        this.#sync.down(error);
        return undefined;
      });
    this.#commands.onEnd(() => void this.close());
  }

  /** Redis is down as far as this process knows: a command timed out, or the client lost it. */
  #knownDown(): boolean {
    if (!this.#health.up) return true;
    if (!this.#commands.lost()) return false;
    this.#health.down(new Error("the Redis client lost its connection"));
    return true;
  }

  /** Every HEARTBEAT_MS: probes Redis (a beat on the channel, else PING), and the subscription. */
  #heartbeat(): void {
    if (this.#health.closed) return;
    this.#sync.checkSilence();
    this.#health.settle(this.#announce ? this.synced : this.#health.up && !this.#commands.lost());
    this.#layout.maybeCopy();
    // Expired entries go every 10 s (and at once when the view is full), O(n) off the call path.
    const sweepNow = this.#view.overflowed || this.#beat % SWEEP_EVERY_BEATS === 0;
    if (sweepNow && this.#view.sweep() && this.#view.overflowed) {
      // Room again: load what the full view may have missed.
      this.#view.overflowed = false;
      this.#sync.reload();
    }
    if (this.#knownDown() && this.#commands.lost()) return;
    this.#beat += 1;
    const probe = this.#announce
      ? this.#commands.publish(this.#channel, beat(this.#origin, this.#beat, monotonicNow()))
      : this.#commands.ping();
    const answered = () => {
      if (this.#health.up || this.#health.closed) return;
      this.#health.up = true;
      // Back: what was announced meanwhile may be lost; load again (the view keeps its own),
      // and tell the others what this replica saw meanwhile.
      this.#sync.reload();
      for (const [key, held] of this.#health.release()) {
        this.#write(key, held.entry, held.until).catch(() => {});
      }
    };
    this.#health
      .timed(probe)
      .then(answered, (error: unknown) => isErrorAnswer(error) && answered());
  }

  #heard(message: string): void {
    const heard = hear(message, this.#origin);
    if (heard === undefined) return;
    if (heard.own) {
      if (heard.sentAt !== undefined) this.#lateMs = Math.max(0, monotonicNow() - heard.sentAt);
      this.#sync.heard();
      return;
    }
    // A beat or a throttle of a replica that fills no index (0.2.0 and before).
    if (heard.older) this.#layout.olderHeard();
    const throttle = heard.throttle;
    if (throttle === undefined) return;
    // The earlier of the entry's own end and the time left when it was sent, counted from when
    // it was sent as far as this replica can tell (its own beats' delay): a replica whose clock
    // is ahead writes an end that holds nothing back, and a late delivery must not stretch it.
    const offset = wallToMonotonic(this.#wall);
    const notAfter = monotonicNow() + throttle.left - this.#lateMs;
    this.#see(throttle.key, throttle.entry, notAfter, offset);
  }

  /** Into the view; a view without room is reported (calls ask Redis until it has room). */
  #see(key: string, raw: unknown, notAfter: number, offset: number): void {
    const overflowed = this.#view.overflowed;
    if (this.#view.see(key, raw, notAfter, false, offset) || overflowed) return;
    this.#health.report(new Error(FULL));
  }
}
