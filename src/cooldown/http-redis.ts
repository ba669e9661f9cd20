// Cooldowns in a Redis reached over HTTP (Upstash's REST protocol), for deployments with no
// process to share and no socket to keep: Vercel, Netlify, AWS Lambda, Cloudflare Workers. There
// is no subscription to learn of another isolate's throttle, so a guarded call with nothing known
// asks Redis (one GET); a cooldown once read or written is kept in the isolate until it ends, so
// calls into a known penalty ask nothing. The client is the caller's (`@upstash/redis`, or any
// object with its `get` and `set`): this package imports none. Made by a function of the store's
// `signal`, every request it sends is aborted when the guard stops waiting for it, and on
// `close()`: a Redis that never answers holds no connection open.

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

/**
 * Makes the store's client with the store's `signal`, which the client calls for each request it
 * sends (`@upstash/redis` takes it as its `signal` option): the store can then abort a request it
 * stopped waiting for, and every request in flight on `close()`.
 */
export type HttpRedisClientFactory = (options: { signal: () => AbortSignal }) => HttpRedisClient;

/** Options of `HttpRedisCooldownStore`. */
export interface HttpRedisCooldownStoreOptions {
  /**
   * The client, or better a function that makes it with the store's `signal`:
   * `({ signal }) => new Redis({ url, token, signal })` of `@upstash/redis`, or
   * `({ signal }) => Redis.fromEnv({ signal })`. A client given as is cannot be aborted: a
   * request it sends to a Redis that never answers stays open until the client gives up.
   */
  client: HttpRedisClient | HttpRedisClientFactory;
  /** Prefix of every key. @default "mcp-upstream-throttle:cooldown:" */
  prefix?: string | undefined;
  /**
   * How long a guarded call waits for Redis before going on without it (the guard's default
   * `storeTimeoutMs` for this store), and when a request made with the store's `signal` is
   * aborted. Above the round trip, a fresh connection's included.
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
 * const store = new HttpRedisCooldownStore({ client: ({ signal }) => Redis.fromEnv({ signal }) });
 * const github = throttledFetch({
 *   limit: "github",
 *   cooldown: { store, partitionSecret: process.env.COOLDOWN_PARTITION_SECRET! },
 * });
 * // On shutdown: await store.close();
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
  /** The requests sent with the store's signal and not yet over their timeout. */
  readonly #inFlight = new Set<InFlight>();
  #closed = false;

  /** Checks the options; sends nothing until a call is guarded. */
  constructor(options: HttpRedisCooldownStoreOptions) {
    if (!isObject(options)) {
      throw new TypeError("`options` must be an object with a `client`");
    }
    this.timeoutMs = timerMs("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS);
    const client: unknown =
      typeof options.client === "function"
        ? options.client({ signal: () => this.#signal() })
        : options.client;
    if (!isClient(client)) {
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
    this.#now = optionalFunction<() => number>("now", options.now) ?? monotonicNow;
    this.#known = new KnownHits(maxKnown, this.#now);
  }

  /** A cooldown known in this isolate at once; else Redis is asked (one GET). */
  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#known.get(key) ?? this.#fetch(key);
  }

  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    if (this.#closed) throw closedError();
    const until = Math.min(entry.until, this.#now() + ttlMs);
    const stored = { ...entry, until };
    this.#known.note(key, stored);
    // The time left now; a write already over is dropped.
    const left = Math.ceil(until - this.#now());
    if (left <= 0) return;
    await this.#client.set(this.#prefix + key, JSON.stringify(stored), { px: left });
  }

  /**
   * Aborts every request in flight; later calls reject (the guard lets them through to the
   * upstream, reported once). The client itself is the caller's: nothing else of it is touched.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const request of this.#inFlight) request.end(closedError());
  }

  /** A request's signal: aborted after `timeoutMs`, or on `close()`. */
  #signal(): AbortSignal {
    const controller = new AbortController();
    if (this.#closed) {
      controller.abort(closedError());
      return controller.signal;
    }
    const request: InFlight = {
      end: (reason) => {
        clearTimeout(timer);
        this.#inFlight.delete(request);
        controller.abort(reason);
      },
    };
    const timer = setTimeout(
      () => request.end(new Error(`Redis gave no answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    // The timer never keeps a process alive (Node); other runtimes have no `unref`.
    (timer as { unref?: () => void }).unref?.();
    this.#inFlight.add(request);
    return controller.signal;
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

/** A request sent with the store's signal: `end` aborts it and forgets it. */
interface InFlight {
  end(reason: Error): void;
}

function isClient(value: unknown): value is HttpRedisClient {
  return (
    isObject(value) &&
    typeof (value as Partial<HttpRedisClient>).get === "function" &&
    typeof (value as Partial<HttpRedisClient>).set === "function"
  );
}

const closedError = () =>
  new Error("the cooldown store is closed: `close()` was called, nothing more is sent to Redis");
