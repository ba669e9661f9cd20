// Cooldowns for Cloudflare Workers, in Durable Objects: every isolate of every Worker bound to
// the namespace reaches the same object for a key, and an object answers in order (no read sees
// an older write than one it answered before). A guarded call with nothing known in its isolate
// asks the key's object (one subrequest); a cooldown once read or written is kept in the isolate
// until it ends, so calls into a known penalty ask nothing. Workers KV is not used: its reads may
// lag a write by 60 s or more, longer than most penalties this would hold.

import { isObject } from "../internal/is-object.js";
import { optionalFunction, timerMs } from "../internal/options.js";
import { monotonicNow } from "./clock.js";
import { MAX_TTL_MS, TTL_HEADER } from "./durable-object.js";
import { KnownHits } from "./known-hits.js";
import { parse } from "./redis-entry.js";
import type { CooldownEntry, CooldownStore } from "./store.js";

/** The part of a Durable Object stub the store uses. */
export interface DurableObjectStubLike {
  /** Sends a request to the object. */
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** The part of a Durable Object namespace binding (`env.COOLDOWNS`) the store uses. */
export interface DurableObjectNamespaceLike {
  /** The id of the object named `name` (one per cooldown key). */
  idFromName(name: string): unknown;
  /** The stub that reaches the object of this id. */
  get(id: never): DurableObjectStubLike;
}

/** Options of `DurableObjectCooldownStore`. */
export interface DurableObjectCooldownStoreOptions {
  /** The namespace bound to `CooldownDurableObject` (`env.COOLDOWNS`). */
  namespace: DurableObjectNamespaceLike;
  /**
   * How long a guarded call waits for the object before going on without it (the guard's
   * default `storeTimeoutMs` for this store); an object may live in another region. @default 1000
   */
  timeoutMs?: number | undefined;
  /** Most cooldowns kept in the isolate once seen. @default 10000 */
  maxKnownEntries?: number | undefined;
  /** The clock, epoch milliseconds. @default a monotonic clock */
  now?: (() => number) | undefined;
}

/** The URL a stub is fetched with: a Durable Object sees only its path and method. */
const OBJECT_URL = "https://cooldown.invalid/entry";

/**
 * Cooldowns shared by every isolate of a Cloudflare Worker (and every Worker bound to the same
 * namespace), in one `CooldownDurableObject` per cooldown key. A guarded call with nothing known
 * in its isolate costs one Durable Object request; a throttle costs one more. Give the wrappers
 * a `partitionSecret` (a Worker secret).
 *
 * @example
 * ```ts
 * import { DurableObjectCooldownStore } from "mcp-upstream-throttle/cloudflare";
 * import type { DurableObjectNamespaceLike } from "mcp-upstream-throttle/cloudflare";
 * import { throttledFetch } from "mcp-upstream-throttle";
 *
 * declare const env: { COOLDOWNS: DurableObjectNamespaceLike; PARTITION_SECRET: string };
 * const store = new DurableObjectCooldownStore({ namespace: env.COOLDOWNS });
 * const github = throttledFetch({
 *   limit: "github",
 *   cooldown: { store, partitionSecret: env.PARTITION_SECRET },
 * });
 * ```
 */
export class DurableObjectCooldownStore implements CooldownStore {
  /** Always `true`: every isolate reads and writes this store. */
  readonly shared = true;
  /** The guard's default wait for this store, in milliseconds. */
  readonly timeoutMs: number;
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #known: KnownHits;
  readonly #now: () => number;

  /** Checks the options; sends nothing until a call is guarded. */
  constructor(options: DurableObjectCooldownStoreOptions) {
    if (!isObject(options)) {
      throw new TypeError("`options` must be an object with a `namespace`");
    }
    const namespace = options.namespace;
    if (typeof namespace?.idFromName !== "function" || typeof namespace.get !== "function") {
      throw new TypeError(
        "`namespace` must be a Durable Object namespace bound to CooldownDurableObject (`env.COOLDOWNS`)",
      );
    }
    const maxKnown = options.maxKnownEntries ?? 10_000;
    if (!Number.isInteger(maxKnown) || maxKnown < 2) {
      throw new TypeError("`maxKnownEntries` must be an integer >= 2");
    }
    this.#namespace = namespace;
    this.timeoutMs = timerMs("timeoutMs", options.timeoutMs, 1000);
    this.#now = optionalFunction<() => number>("now", options.now) ?? monotonicNow;
    this.#known = new KnownHits(maxKnown, this.#now);
  }

  /** A cooldown known in this isolate at once; else the key's object is asked. */
  get(key: string): CooldownEntry | undefined | Promise<CooldownEntry | undefined> {
    return this.#known.get(key) ?? this.#fetch(key);
  }

  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    const until = Math.min(entry.until, this.#now() + ttlMs);
    const stored = { ...entry, until };
    this.#known.note(key, stored);
    const left = Math.ceil(until - this.#now());
    if (left <= 0) return;
    const response = await this.#stub(key).fetch(OBJECT_URL, {
      method: "PUT",
      // The object keeps an entry a day at most: a longer cooldown (a `maxRetryAfterSeconds`
      // above a day) is shared for its first day rather than refused.
      headers: { [TTL_HEADER]: String(Math.min(left, MAX_TTL_MS)) },
      body: JSON.stringify(stored),
    });
    await response.body?.cancel();
    if (response.status !== 204) throw answered(response.status);
  }

  async #fetch(key: string): Promise<CooldownEntry | undefined> {
    const response = await this.#stub(key).fetch(OBJECT_URL, { method: "GET" });
    if (response.status === 204) return undefined;
    if (response.status !== 200) {
      await response.body?.cancel();
      throw answered(response.status);
    }
    const entry = parse(await response.text());
    this.#known.note(key, entry);
    return entry as CooldownEntry;
  }

  #stub(key: string): DurableObjectStubLike {
    return this.#namespace.get(this.#namespace.idFromName(key) as never);
  }
}

function answered(status: number): Error {
  return new Error(`the cooldown Durable Object answered HTTP ${status}`);
}
