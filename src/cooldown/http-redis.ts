// Cooldowns in a Redis reached over HTTP (Upstash's REST protocol), for deployments with no
// process to share and no socket to keep: Vercel, Netlify, AWS Lambda, Cloudflare Workers. There
// is no subscription to learn of another isolate's throttle, so a guarded call with nothing known
// asks Redis (one GET); a cooldown once read or written is kept in the isolate until it ends, so
// calls into a known penalty ask nothing. The client is the caller's (`@upstash/redis`, or any
// object with its `get` and `set`): this package imports none.

import { isObject } from "../internal/is-object.js";
import { optionalFunction, timerMs } from "../internal/options.js";
import { monotonicNow } from "./clock.js";
import { KnownHits } from "./known-hits.js";
import { parse } from "./redis-entry.js";
import type { CooldownEntry, CooldownStore } from "./store.js";

/**
 * The two commands the store sends, as `@upstash/redis`'s `Redis` has them (and `@vercel/kv`,
 * which wraps it). `get` may answer the stored text or, with the client's automatic
 * deserialization, the object it holds.
 */
export interface HttpRedisClient {
  /** `GET key`: the stored text, the object the client deserialized from it, or `null`. */
  get(key: string): Promise<unknown>;
  /** `SET key value PX ms`: the entry, kept for `px` milliseconds. */
  set(key: string, value: string, options: { px: number }): Promise<unknown>;
}

/** Options of `HttpRedisCooldownStore`. */
export interface HttpRedisCooldownStoreOptions {
  /** The client: `new Redis({ url, token })` of `@upstash/redis`, or `Redis.fromEnv()`. */
  client: HttpRedisClient;
  /** Prefix of every key. @default "mcp-upstream-throttle:cooldown:" */
  prefix?: string | undefined;
  /**
   * How long a guarded call waits for Redis before going on without it (the guard's default
   * `storeTimeoutMs` for this store). Above the round trip, a fresh connection's included.
   * @default 1000
   */
  timeoutMs?: number | undefined;
  /** Most cooldowns kept in the isolate once seen. @default 10000 */
  maxKnownEntries?: number | undefined;
  /** The clock, epoch milliseconds. @default a monotonic clock */
  now?: (() => number) | undefined;
}

/** A Redis over HTTP is a network away: a fresh connection is up to three round trips. */
const DEFAULT_TIMEOUT_MS = 1000;
/** The longest text read as an entry, as the Durable Object store keeps. */
const MAX_TEXT = 4096;

/**
 * Cooldowns shared by every isolate and function instance, in a Redis reached over HTTP
 * (`@upstash/redis`, or any client of the same REST protocol). A guarded call with no cooldown
 * known in its isolate costs one `GET`; a throttle costs one `SET`. Give the wrappers a
 * `partitionSecret`, the same everywhere.
 *
 * @example
 * ```ts
 * import { Redis } from "@upstash/redis";
 * import { HttpRedisCooldownStore, throttledFetch } from "mcp-upstream-throttle";
 *
 * const store = new HttpRedisCooldownStore({ client: Redis.fromEnv() });
 * const github = throttledFetch({
 *   limit: "github",
 *   cooldown: { store, partitionSecret: process.env.COOLDOWN_PARTITION_SECRET! },
 * });
 * ```
 */
export class HttpRedisCooldownStore implements CooldownStore {
  /** Always `true`: every isolate reads and writes this store. */
  readonly shared = true;
  /** The guard's default wait for this store, in milliseconds. */
  readonly timeoutMs: number;
  readonly #client: HttpRedisClient;
  readonly #prefix: string;
  readonly #known: KnownHits;
  readonly #now: () => number;

  /** Checks the options; sends nothing until a call is guarded. */
  constructor(options: HttpRedisCooldownStoreOptions) {
    if (!isObject(options)) {
      throw new TypeError("`options` must be an object with a `client`");
    }
    const client = options.client;
    if (typeof client?.get !== "function" || typeof client.set !== "function") {
      throw new TypeError(
        "`client` must be a Redis client over HTTP with `get` and `set` (`@upstash/redis`)",
      );
    }
    const prefix = options.prefix ?? "mcp-upstream-throttle:cooldown:";
    if (typeof prefix !== "string" || prefix === "") {
      throw new TypeError("`prefix` must be a non-empty string");
    }
    const maxKnown = options.maxKnownEntries ?? 10_000;
    if (!Number.isInteger(maxKnown) || (maxKnown as number) < 2) {
      throw new TypeError("`maxKnownEntries` must be an integer >= 2");
    }
    this.#client = client;
    this.#prefix = prefix;
    this.timeoutMs = timerMs("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.#now = optionalFunction<() => number>("now", options.now) ?? monotonicNow;
    this.#known = new KnownHits(maxKnown, this.#now);
  }

  /** A cooldown known in this isolate at once; else Redis is asked (one GET). */
  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined> {
    return this.#known.get(key) ?? this.#fetch(key);
  }

  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    const until = Math.min(entry.until, this.#now() + ttlMs);
    const stored = { ...entry, until };
    this.#known.note(key, stored);
    // The time left now; a write already over is dropped.
    const left = Math.ceil(until - this.#now());
    if (left <= 0) return;
    await this.#client.set(this.#prefix + key, JSON.stringify(stored), { px: left });
  }

  async #fetch(key: string): Promise<CooldownEntry | undefined> {
    const raw = await this.#client.get(this.#prefix + key);
    if (raw === null || raw === undefined) return undefined;
    // The text as stored, or what the client's automatic deserialization made of it. Text far
    // longer than any entry (about 150 characters) is not parsed: it was planted, and would be
    // parsed again on every call with nothing known.
    const entry = typeof raw !== "string" ? raw : raw.length > MAX_TEXT ? raw : parse(raw);
    this.#known.note(key, entry);
    return entry as CooldownEntry;
  }
}
