// Cooldowns shared by every replica of an MCP server, at no cost on the success path. Redis is
// the source of truth: each entry holds the absolute end of its cooldown (`until`), so a write
// that a stalled Redis runs late still ends on time; the key's own TTL only collects it. Every
// replica also keeps an in-process view of the active cooldowns (redis-view.ts), fed by a pub/sub
// announcement per throttle and loaded whole whenever its subscription (re)starts: from the index
// every write also fills (redis-index.ts), or, while a replica of an older version may be
// writing (or before the index was filled from the keys), by SCAN + MGET as before. Loads go in
// chunks that yield. While the view is live a guarded call makes no round trip; while it
// is not, calls ask Redis. Redis known to be down (a command unanswered within 200 ms, a client
// that is not ready) is not waited for: the view answers with what it knew until a heartbeat
// finds Redis back. A heartbeat on the channel also finds a subscription that went silent.

import { isObject } from "../internal/is-object.js";
import { bool, optionalFunction } from "../internal/options.js";
import {
  emitEvent,
  eventHook,
  storeErrorEvent,
  type ThrottleEventHook,
} from "../observability/events.js";
import { monotonicNow } from "./clock.js";
import { callHook } from "./hooks.js";
import {
  type RedisCommands,
  type RedisLikeClient,
  redisCommands,
  type Subscription,
} from "./redis-client.js";
import { parse } from "./redis-entry.js";
import { type IndexKeys, indexCommands, indexKeys } from "./redis-index.js";
import { ViewLoader } from "./redis-loader.js";
import { MAX_ENTRY_CHARACTERS, RedisView } from "./redis-view.js";
import type { CooldownEntry, CooldownStore } from "./store.js";

export type { RedisLikeClient } from "./redis-client.js";

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
   * Announce throttles to every replica and keep an in-process view of the active cooldowns
   * (one extra connection, for the subscription), so a guarded call needs no round trip.
   * `false`: every guarded call asks Redis (`GET`). @default true
   */
  announce?: boolean | undefined;
  /** Told when Redis, the subscription or the loading of the view fails, once per outage. */
  onError?: ((error: unknown) => void) | undefined;
  /** Told of the same failures as `store-error` events (https://github.com/mcp-upstream-throttle/mcp-upstream-throttle/blob/main/docs/observability.md). */
  onEvent?: ThrottleEventHook | undefined;
}

/** A command unanswered this long marks Redis down. Below the guard's default `storeTimeoutMs`. */
const COMMAND_TIMEOUT_MS = 200;
/** The heartbeat: a probe of Redis, and of the subscription (its own beat must come back). */
const HEARTBEAT_MS = 500;
/** No beat of its own heard for this long: the subscription is silent (half-open). */
const SILENT_MS = 1500;
const SWEEP_EVERY_BEATS = 20;
/**
 * Healthy this long (at every beat), an outage is over: the next failure is reported again. A
 * flood that makes the subscription fall behind, then fills the view, is one outage, not three.
 */
const SETTLED_MS = 2000;
const RETRY_LOAD_MS = 1000;
/**
 * An older replica (announcements without `v`) heard within this long: the index may lack its
 * entries, so views are loaded by SCAN. Six heartbeats: every older replica that announces is heard.
 */
const OLDER_MS = 3000;
/** The layout of entries and announcements this store writes (the index is filled). */
const LAYOUT = 1;

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
 * const store = new RedisCooldownStore({ client: redis, onError: (error) => console.warn(error) });
 * const github = throttledFetch({
 *   limit: "github",
 *   cooldown: { store, partitionSecret: process.env.COOLDOWN_PARTITION_SECRET! },
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
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #onEvent: ThrottleEventHook | undefined;
  readonly #view: RedisView;
  readonly #loader: ViewLoader;
  readonly #announce: boolean;
  readonly #keys: IndexKeys;
  /** When a replica of an older version (no index) was last heard on the channel. */
  #olderAt = Number.NEGATIVE_INFINITY;
  #markerDroppedAt = Number.NEGATIVE_INFINITY;
  /** The index holds every entry, as far as this replica knows: loads read it. */
  #indexed = false;
  #migrating = false;
  /** Since when the subscription carries messages without a break (drop or silence). */
  #hearingSince = Number.POSITIVE_INFINITY;
  /** The subscription is made (and not known to have dropped). */
  #subscribed = false;
  /** Our own beats stopped coming back: the subscription is half-open, or the loop was stalled. */
  #silent = false;
  /** The view holds every active cooldown: loaded since the subscription was last made. */
  #loaded = false;
  /** Redis answers (no command timed out since the last heartbeat that came back). */
  #redisUp = true;
  #loading = false;
  #reloadWanted = false;
  #generation = 0;
  #failing = false;
  #healthySince = Number.POSITIVE_INFINITY;
  #closed = false;
  #lastBeat = monotonicNow();
  #beat = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #subscription: Promise<Subscription | undefined> | undefined;

  /** Subscribes to the announcements (with `announce`) and starts loading the view. */
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
    this.#view = new RedisView({ keyPrefix: prefix });
    this.#keys = indexKeys(prefix);
    this.#channel = `${prefix}announcements`;
    this.#loader = new ViewLoader({
      commands: this.#commands,
      prefix,
      channel: this.#channel,
      keys: this.#keys,
      timed: (pending) => this.#timed(pending),
      see: (key, text, notAfter, now) => this.#seeText(key, text, notAfter, now),
    });
    this.#onError = optionalFunction("onError", options.onError);
    this.#onEvent = eventHook(options.onEvent);
    this.#announce = bool("announce", options.announce, true);
    if (this.#announce) {
      this.#subscription = this.#commands
        .subscribe(this.#channel, {
          message: (message) => this.#announced(message),
          up: () => this.#up(),
          down: (error) => this.#down(error),
        })
        .catch((error: unknown) => {
          this.#down(error);
          return undefined;
        });
      this.#commands.onEnd(() => void this.close());
    }
    this.#timer = setInterval(() => this.#heartbeat(), HEARTBEAT_MS);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Whether the in-process view is live: guarded calls then make no round trip. */
  get synced(): boolean {
    return (
      this.#subscribed && !this.#silent && this.#loaded && this.#redisUp && !this.#view.overflowed
    );
  }

  mayHave(scope?: string): boolean {
    // Redis known down: the view answers with what it knew, for scopes it knows.
    if (this.synced || this.#knownDown()) return this.#view.mayHave(scope);
    return true;
  }

  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined> {
    if (this.synced || this.#knownDown()) return this.#view.get(key);
    return this.#fetch(key);
  }

  /** Redis is down as far as this process knows: a command timed out, or the client lost it. */
  #knownDown(): boolean {
    if (!this.#redisUp) return true;
    if (!this.#commands.lost()) return false;
    this.#redisDown(new Error("the Redis client lost its connection"));
    return true;
  }

  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    const until = Math.min(entry.until, monotonicNow() + ttlMs);
    if (this.#announce) this.#see(key, entry, until, false);
    // Known down: not queued behind the outage (the view has it; Redis gets the next one).
    if (!this.#redisUp || this.#commands.lost()) return;
    const text = JSON.stringify({ ...entry, until });
    // The time left now, not when the throttle was seen; a write already over is dropped.
    const left = Math.ceil(until - monotonicNow());
    if (left <= 0) return;
    // The key (for point lookups) and its record in the index, in one transaction.
    const write = [
      ["SET", this.#prefix + key, text, "PX", String(left)],
      ...indexCommands(this.#keys, [{ key, text, until }], monotonicNow()),
    ];
    await this.#timed(this.#commands.multi(write).then(failedFirst));
    if (!this.#announce) return;
    const t = Math.ceil(until - monotonicNow());
    if (t <= 0) return;
    await this.#timed(
      this.#commands.publish(
        this.#channel,
        JSON.stringify({ o: this.#origin, v: LAYOUT, k: key, t, e: { ...entry, until } }),
      ),
    );
  }

  /** Stops the heartbeat and the subscription (its connection). Runs by itself when the client ends. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscribed = false;
    clearInterval(this.#timer);
    const subscription = await this.#subscription;
    await subscription?.close();
  }

  /** `GET`: the entry holds its own end; Redis emptied meanwhile (a restart) leaves the view's. */
  async #fetch(key: string): Promise<CooldownEntry | undefined> {
    const raw = await this.#timed(this.#commands.get(this.#prefix + key));
    const known = this.#view.get(key);
    if (raw === null || raw === undefined) return known;
    const entry = parse(raw) as CooldownEntry;
    if (known !== undefined && isObject(entry) && !(entry.until > known.until)) return known;
    return entry;
  }

  /** A command with the store's own timeout: one that fails or times out marks Redis down. */
  async #timed<T>(pending: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          // Rejected after the next poll for I/O: when the event loop itself was stalled, an
          // answer that arrived meanwhile is read first, and Redis is not taken for down.
          const late = () =>
            reject(new Error(`Redis gave no answer within ${COMMAND_TIMEOUT_MS} ms`));
          timer = setTimeout(() => afterIo(late), COMMAND_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      pending.catch(() => {});
      // A key of the wrong type is an answer: Redis is up (the caller decides what it means).
      if (!isWrongType(error)) this.#redisDown(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  #redisDown(error: unknown): void {
    if (this.#closed) return;
    this.#redisUp = false;
    this.#report(error);
  }

  /** Every HEARTBEAT_MS: probes Redis (a beat on the channel, else PING), and the subscription. */
  #heartbeat(): void {
    if (this.#closed) return;
    if (this.#subscribed && !this.#silent && monotonicNow() - this.#lastBeat > SILENT_MS) {
      // Our own beats stopped coming back: the subscription is half-open. Fall back to Redis.
      this.#silent = true;
      this.#hearingSince = Number.POSITIVE_INFINITY;
      this.#report(
        new Error(
          "the cooldown subscription went silent or fell behind (its own beat unheard for 1.5 s); asking Redis",
        ),
      );
    }
    this.#settle();
    this.#maybeMigrate();
    // Expired entries go every 10 s (and at once when the view is full), O(n) off the call path.
    const sweepNow = this.#view.overflowed || this.#beat % SWEEP_EVERY_BEATS === 0;
    const room = sweepNow && this.#view.sweep();
    if (this.#view.overflowed && room) {
      // Room again: load what the full view may have missed.
      this.#view.overflowed = false;
      this.#loaded = false;
      this.#sync();
    }
    if (this.#knownDown() && this.#commands.lost()) return;
    this.#beat += 1;
    const probe = this.#announce
      ? this.#commands.publish(
          this.#channel,
          JSON.stringify({ o: this.#origin, v: LAYOUT, h: this.#beat }),
        )
      : this.#commands.ping();
    this.#timed(probe).then(
      () => {
        if (this.#redisUp || this.#closed) return;
        this.#redisUp = true;
        // Back: what was announced meanwhile may be lost; load again (the view keeps its own).
        this.#loaded = false;
        if (this.#subscribed) this.#sync();
      },
      () => {},
    );
  }

  /** Ends the outage being reported once the store was healthy at every beat for SETTLED_MS. */
  #settle(): void {
    const healthy = this.#announce ? this.synced : this.#redisUp && !this.#commands.lost();
    if (!healthy) {
      this.#healthySince = Number.POSITIVE_INFINITY;
      return;
    }
    const now = monotonicNow();
    if (this.#healthySince === Number.POSITIVE_INFINITY) this.#healthySince = now;
    else if (now - this.#healthySince >= SETTLED_MS) this.#failing = false;
  }

  #announced(message: string): void {
    // Not one of ours: too big to be an entry (and not worth the parse), or not shaped like one.
    if (message.length > MAX_ENTRY_CHARACTERS) return;
    const announcement = parse(message);
    if (!isObject(announcement)) return;
    if (announcement.o === this.#origin) {
      if (announcement.h !== undefined) this.#heard();
      return;
    }
    // A beat or a throttle of a replica that fills no index (0.2.0 and before).
    if (announcement.v === undefined && typeof announcement.o === "string") this.#olderHeard();
    const { k: key, t: left, e: entry } = announcement;
    if (typeof key !== "string" || typeof left !== "number" || !(left > 0)) return;
    // The earlier of the entry's own end and the time left when it was sent.
    this.#see(key, entry, monotonicNow() + left, false);
  }

  /** Into the view; a view without room is reported (calls ask Redis until it has room). */
  #see(key: string, raw: unknown, notAfter: number, stored: boolean): void {
    const overflowed = this.#view.overflowed;
    if (this.#view.see(key, raw, notAfter, stored) || overflowed) return;
    this.#report(new Error("the cooldown view is full; asking Redis until it has room again"));
  }

  /** `#see` for a value read from Redis. */
  #seeText(key: string, text: string, notAfter: number, now: number): void {
    const overflowed = this.#view.overflowed;
    if (this.#view.seeText(key, text, notAfter, now) || overflowed) return;
    this.#report(new Error("the cooldown view is full; asking Redis until it has room again"));
  }

  /** A beat of our own came back: the subscription carries messages (again). */
  #heard(): void {
    this.#lastBeat = monotonicNow();
    if (!this.#silent) return;
    // What was announced while it was silent may be lost: load again.
    this.#silent = false;
    this.#hearingSince = monotonicNow();
    this.#loaded = false;
    this.#sync();
  }

  #up(): void {
    if (this.#closed) return;
    this.#subscribed = true;
    this.#silent = false;
    this.#lastBeat = monotonicNow();
    this.#hearingSince = this.#lastBeat;
    this.#loaded = false;
    this.#sync();
  }

  #down(error?: unknown): void {
    this.#generation += 1;
    this.#subscribed = false;
    this.#hearingSince = Number.POSITIVE_INFINITY;
    this.#loaded = false;
    // The view is kept: its entries end on their own, and Redis never ends one early.
    if (error !== undefined && !this.#closed) this.#report(error);
  }

  /** Loads the view; a load made stale by a flap is followed by a fresh one. */
  #sync(): void {
    if (this.#loading) {
      this.#reloadWanted = true;
      return;
    }
    this.#loading = true;
    this.#reloadWanted = false;
    const generation = this.#generation;
    this.#load(generation).then(
      () => this.#loadEnded(generation, undefined),
      (error: unknown) => this.#loadEnded(generation, error ?? new Error("load failed")),
    );
  }

  #loadEnded(generation: number, error: unknown): void {
    this.#loading = false;
    if (this.#closed) return;
    const current = generation === this.#generation && this.#subscribed;
    if (current && error === undefined && !this.#reloadWanted) {
      this.#loaded = true;
      return;
    }
    if (this.#reloadWanted) {
      this.#sync();
      return;
    }
    if (!this.#subscribed) return;
    if (error !== undefined) this.#report(error);
    // The subscription is up but the view is not: try again, asking Redis meanwhile.
    const retry = setTimeout(
      () => this.#subscribed && !this.#loading && this.#sync(),
      RETRY_LOAD_MS,
    );
    (retry as { unref?: () => void }).unref?.();
  }

  /**
   * Loads every active cooldown: from the index when it holds them all, else from the keyspace.
   * Announcements meanwhile are kept; calls meanwhile ask Redis.
   */
  async #load(generation: number): Promise<void> {
    const started = monotonicNow();
    const stale = () => generation !== this.#generation;
    const complete = await this.#loader.complete();
    if (stale()) return;
    if (complete && started - this.#olderAt > OLDER_MS) {
      try {
        if (await this.#loader.fromIndex(stale)) {
          this.#indexed = true;
          return;
        }
      } catch (error) {
        // Down: as for any load. Else an index that cannot be read (a key of the wrong type).
        if (!this.#redisUp || !isWrongType(error)) throw error;
      }
    }
    this.#indexed = false;
    await this.#loader.fromKeys(stale);
  }

  /** An older replica writes here: the index may lack its entries. Loads go by SCAN meanwhile. */
  #olderHeard(): void {
    const now = monotonicNow();
    this.#olderAt = now;
    if (now - this.#markerDroppedAt > 1000) {
      // So that a replica starting now does not trust the index either.
      this.#markerDroppedAt = now;
      this.#loader.mark(false).catch(() => {});
    }
    if (!this.#indexed) return;
    this.#indexed = false;
    this.#report(
      new Error(
        "a replica of an older version writes these cooldowns without the index; loading them by SCAN",
      ),
    );
    this.#loaded = false;
    this.#sync();
  }

  /**
   * Once no older replica was heard for a while (with the subscription live all along), the
   * entries of the keyspace are copied into the index and the marker set: later loads read it.
   */
  #maybeMigrate(): void {
    const now = monotonicNow();
    if (this.#indexed || this.#migrating || !this.synced || this.#closed) return;
    if (now - this.#olderAt <= OLDER_MS || now - this.#hearingSince < OLDER_MS) return;
    this.#migrating = true;
    const generation = this.#generation;
    const stale = () => generation !== this.#generation || this.#olderAt >= now || this.#silent;
    const migrate = async () => {
      const complete = await this.#loader.complete();
      if (!complete) await this.#loader.copyKeysIntoIndex(stale);
      if (stale()) return;
      if (!complete) await this.#loader.mark(true);
      this.#indexed = true;
    };
    // A failure is reported (when Redis failed) by #timed; tried again on a later beat.
    migrate()
      .catch(() => {})
      .finally(() => {
        this.#migrating = false;
      });
  }

  /** Once per outage: to `onError`, and as a `store-error` event. */
  #report(error: unknown): void {
    this.#healthySince = Number.POSITIVE_INFINITY;
    if (this.#failing) return;
    this.#failing = true;
    callHook(this.#onError, error);
    emitEvent(this.#onEvent, storeErrorEvent(error, "RedisCooldownStore", "sync"));
  }
}

/** The transaction's replies, or the first command's error (the entry's own SET). */
function failedFirst(replies: unknown[]): unknown[] {
  if (replies[0] instanceof Error) throw replies[0];
  return replies;
}

function isWrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("WRONGTYPE");
}

function afterIo(run: () => void): void {
  if (typeof setImmediate === "function") setImmediate(run);
  else setTimeout(run, 0);
}
