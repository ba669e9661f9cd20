import type { CooldownEntry, CooldownStore } from "./store.js";

/** The two commands the store uses, as ioredis (and node-redis' legacy mode) spell them. */
export interface RedisLikeClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: "PX", milliseconds: number): Promise<unknown>;
}

export interface RedisCooldownStoreOptions {
  /** A connected client, e.g. `new Redis(url)` from ioredis. */
  client: RedisLikeClient;
  /** Prefix of every key. @default "mcp-upstream-throttle:cooldown:" */
  prefix?: string;
}

/**
 * Cooldowns shared by every replica of an MCP server: one `SET key value PX ttl` per throttle
 * (atomic, expiring on its own), one `GET` per guarded call. Keys are namespaced by `prefix`.
 */
export class RedisCooldownStore implements CooldownStore {
  readonly #client: RedisLikeClient;
  readonly #prefix: string;

  constructor(options: RedisCooldownStoreOptions) {
    if (typeof options?.client?.get !== "function" || typeof options.client.set !== "function") {
      throw new TypeError("`client` must be a Redis client with `get` and `set` (e.g. ioredis)");
    }
    this.#client = options.client;
    this.#prefix = options.prefix ?? "mcp-upstream-throttle:cooldown:";
  }

  async get(key: string): Promise<CooldownEntry | undefined> {
    const raw = await this.#client.get(this.#prefix + key);
    if (raw === null) return undefined;
    try {
      const entry = JSON.parse(raw) as CooldownEntry;
      return typeof entry.until === "number" && typeof entry.limit === "string" ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, entry: CooldownEntry, ttlMs: number): Promise<void> {
    await this.#client.set(
      this.#prefix + key,
      JSON.stringify(entry),
      "PX",
      Math.max(1, Math.ceil(ttlMs)),
    );
  }
}
