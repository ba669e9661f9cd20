// Cooldowns shared by every replica of an MCP server, at no cost on the success path. Redis is
// the source of truth (`SET key value PX ttl`, expiring on its own); every replica also keeps an
// in-process view of the cooldowns that are active, fed by a pub/sub announcement per throttle
// and loaded whole whenever its subscription (re)starts. While the view is live, a guarded call
// makes no round trip; while it is not (starting, subscription dropped), calls ask Redis as
// before. A missed announcement costs one extra upstream call, never a wrong lock-out.

import { emitEvent, eventHook, storeErrorEvent, type ThrottleEventHook } from "../events.js";
import { isObject } from "../internal/is-object.js";
import { bool, optionalFunction } from "../options.js";
import {
  type RedisCommands,
  type RedisLikeClient,
  redisCommands,
  type Subscription,
} from "./redis-client.js";
import { type CooldownEntry, type CooldownStore, ScopeIndex, scopeOfKey } from "./store.js";

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
   * `false`: every guarded call asks Redis (`GET` and `PTTL`). @default true
   */
  announce?: boolean | undefined;
  /** Told when the subscription or the loading of the view fails, once per outage. */
  onError?: ((error: unknown) => void) | undefined;
  /** Told of the same failures as `store-error` events (docs/observability.md). */
  onEvent?: ThrottleEventHook | undefined;
}

interface Viewed {
  /** The entry as stored: data from outside, checked by the guard on every read. */
  entry: unknown;
  /** Until when, on this machine's clock (from the TTL, never the writer's clock). */
  until: number;
  /** What it costs the view, in characters. */
  size: number;
}

// Announcements are data from outside: whoever can publish on the channel must not grow the
// view without bound, stall the event loop, or fill it so real announcements are lost.
const MAX_VIEW_ENTRIES = 100_000;
const MAX_VIEW_CHARACTERS = 16 * 1024 * 1024;
/** An announcement this library writes is a few hundred characters; anything past this is not one. */
const MAX_ANNOUNCEMENT_CHARACTERS = 4096;
const RETRY_LOAD_MS = 1000;

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
  readonly #view = new Map<string, Viewed>();
  readonly #scopes = new ScopeIndex(MAX_VIEW_ENTRIES);
  #synced = false;
  /** The view filled up: it may lack entries, so calls ask Redis until it is loaded again. */
  #overflowed = false;
  #viewSize = 0;
  #loading = false;
  #generation = 0;
  #failing = false;
  #closed = false;
  #subscription: Promise<Subscription | undefined> | undefined;

  /** Subscribes to the announcements (with `announce`) and starts loading the view. */
  constructor(options: RedisCooldownStoreOptions) {
    if (typeof options !== "object" || options === null) {
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
    this.#channel = `${prefix}announcements`;
    this.#onError = optionalFunction("onError", options.onError);
    this.#onEvent = eventHook(options.onEvent);
    if (bool("announce", options.announce, true)) {
      this.#subscription = this.#subscribe();
      this.#commands.onEnd(() => void this.close());
    }
  }

  /** Whether the in-process view is live: guarded calls then make no round trip. */
  get synced(): boolean {
    return this.#synced && !this.#overflowed;
  }

  mayHave(scope?: string): boolean {
    return !this.synced || this.#scopes.mayHave(scope, Date.now());
  }

  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined> {
    if (!this.synced) return this.#fetch(key);
    const viewed = this.#view.get(key);
    if (viewed === undefined) return undefined;
    if (viewed.until <= Date.now()) {
      this.#forget(key, viewed);
      return undefined;
    }
    return withUntil(viewed.entry, viewed.until);
  }

  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const text = JSON.stringify(entry);
    this.#see(key, entry, ttl, text.length);
    await this.#commands.set(this.#prefix + key, text, ttl);
    if (this.#subscription === undefined) return;
    const announcement = JSON.stringify({ o: this.#origin, k: key, t: ttl, e: entry });
    await this.#commands.publish(this.#channel, announcement);
  }

  /** Stops the subscription (its connection). Runs by itself when the client ends. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#synced = false;
    const subscription = await this.#subscription?.catch(() => undefined);
    await subscription?.close();
  }

  /** `GET` and `PTTL` together: the time left comes from Redis, never from a writer's clock. */
  async #fetch(key: string): Promise<CooldownEntry | undefined> {
    const [raw, pttl] = await Promise.all([
      this.#commands.get(this.#prefix + key),
      this.#commands.pttl(this.#prefix + key),
    ]);
    if (raw === null || raw === undefined || !(pttl > 0)) return undefined;
    return withUntil(parse(raw), Date.now() + pttl);
  }

  async #subscribe(): Promise<Subscription | undefined> {
    try {
      return await this.#commands.subscribe(this.#channel, {
        message: (message) => this.#announced(message),
        up: () => this.#up(),
        down: (error) => this.#down(error),
      });
    } catch (error) {
      this.#down(error);
      return undefined;
    }
  }

  #announced(message: string): void {
    // Not one of ours: too big to be an entry (and not worth the parse), or not shaped like one.
    if (message.length > MAX_ANNOUNCEMENT_CHARACTERS) return;
    const announcement = parse(message);
    if (!isObject(announcement) || announcement.o === this.#origin) return;
    const { k: key, t: ttl, e: entry } = announcement;
    if (typeof key !== "string" || typeof ttl !== "number" || !(ttl > 0) || !isObject(entry))
      return;
    this.#see(key, entry, ttl, message.length);
  }

  /** Notes an entry in the view, for `ttl` milliseconds from now. */
  #see(key: string, entry: unknown, ttl: number, size: number): void {
    if (this.#subscription === undefined) return;
    const known = this.#view.get(key);
    if (known !== undefined) this.#forget(key, known);
    if (this.#full(size)) this.#sweep();
    if (this.#full(size)) {
      // Dropping it would leave a cooldown unseen: ask Redis until the view is loaded again.
      if (!this.#overflowed) this.#report(new Error("the cooldown view is full; asking Redis"));
      this.#overflowed = true;
      return;
    }
    const until = Date.now() + Math.min(ttl, 2 ** 31 - 1);
    this.#view.set(key, { entry, until, size: key.length + size });
    this.#viewSize += key.length + size;
    this.#scopes.note(scopeOfKey(key), until);
  }

  #full(size: number): boolean {
    return this.#view.size >= MAX_VIEW_ENTRIES || this.#viewSize + size > MAX_VIEW_CHARACTERS;
  }

  #forget(key: string, viewed: Viewed): void {
    this.#view.delete(key);
    this.#viewSize -= viewed.size;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [key, viewed] of this.#view) if (viewed.until <= now) this.#forget(key, viewed);
  }

  #up(): void {
    if (this.#closed || this.#synced || this.#loading) return;
    this.#loading = true;
    const generation = this.#generation;
    this.#load(generation).then(
      () => {
        this.#loading = false;
        if (generation !== this.#generation || this.#closed) return;
        this.#synced = true;
        this.#failing = false;
      },
      (error: unknown) => {
        this.#loading = false;
        if (generation !== this.#generation || this.#closed) return;
        this.#report(error);
        // The subscription is up but the view is not: try again, asking Redis meanwhile.
        const retry = setTimeout(() => this.#up(), RETRY_LOAD_MS);
        (retry as { unref?: () => void }).unref?.();
      },
    );
  }

  #down(error?: unknown): void {
    this.#generation += 1;
    this.#synced = false;
    this.#overflowed = false;
    this.#view.clear();
    this.#viewSize = 0;
    this.#scopes.clear();
    if (error !== undefined && !this.#closed) this.#report(error);
  }

  /** Loads every active cooldown; announcements that arrive meanwhile are kept. */
  async #load(generation: number): Promise<void> {
    const pattern = `${this.#prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
    let cursor = "0";
    do {
      const page = await this.#commands.scan(cursor, pattern);
      cursor = page.cursor;
      await Promise.all(
        page.keys.map(async (redisKey) => {
          const [raw, pttl] = await Promise.all([
            this.#commands.get(redisKey),
            this.#commands.pttl(redisKey),
          ]);
          if (generation !== this.#generation || raw === null || !(pttl > 0)) return;
          // Too big to be an entry this library wrote: left out of the view (no lock-out).
          if (raw.length > MAX_ANNOUNCEMENT_CHARACTERS) return;
          const key = redisKey.slice(this.#prefix.length);
          const known = this.#view.get(key);
          if (known === undefined || known.until < Date.now() + pttl)
            this.#see(key, parse(raw), pttl, raw.length);
        }),
      );
    } while (cursor !== "0" && generation === this.#generation);
  }

  /** Once per outage: to `onError`, and as a `store-error` event. */
  #report(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    try {
      this.#onError?.(error);
    } catch {
      // A hook that throws changes nothing.
    }
    emitEvent(this.#onEvent, storeErrorEvent(error, "RedisCooldownStore", "sync"));
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The stored entry with `until` on this machine's clock; anything else as it is (invalid). */
function withUntil(entry: unknown, until: number): CooldownEntry {
  return (isObject(entry) ? { ...entry, until } : entry) as CooldownEntry;
}
