// The Durable Object a Worker's cooldowns live in: one object per cooldown key (a limit and a
// caller's partition), named after it, so every isolate of every Worker bound to the namespace
// reaches the same one. It holds the entry's text and when to drop it, in its own storage, and an
// alarm collects it. It judges nothing: what it hands back is checked by the guard on every read.

/** The part of a Durable Object's storage this class uses (`ctx.storage`). */
export interface CooldownObjectStorage {
  /** Reads the value stored under `key`. */
  get(key: string): Promise<unknown>;
  /** Stores `value` under `key`. */
  put(key: string, value: unknown): Promise<void>;
  /** Drops everything the object stored. */
  deleteAll(): Promise<unknown>;
  /** Wakes the object at `scheduledTime` (epoch milliseconds), to drop its entry. */
  setAlarm(scheduledTime: number): Promise<void>;
}

/** What the runtime hands a Durable Object's constructor (`DurableObjectState`). */
export interface CooldownObjectState {
  /** The object's own storage (`ctx.storage`). */
  storage: CooldownObjectStorage;
}

/** An entry is about 150 characters; anything much longer is not one. */
const MAX_TEXT = 4096;
/** The guard never remembers longer than its clamp (a day by default). */
export const MAX_TTL_MS = 86_400_000;
/** The header of a write that says how long the entry lives. */
export const TTL_HEADER = "x-cooldown-ttl-ms";

interface Held {
  text: string;
  expires: number;
}

/**
 * The Durable Object class behind `DurableObjectCooldownStore`: export it from your Worker and
 * bind it (a `durable_objects` binding and a migration naming it). One object per cooldown key.
 *
 * @example
 * ```ts
 * // worker.ts: the class must be exported from the Worker's main module.
 * export { CooldownDurableObject } from "mcp-upstream-throttle/cloudflare";
 * // wrangler.jsonc:
 * //   "durable_objects": { "bindings": [{ "name": "COOLDOWNS", "class_name": "CooldownDurableObject" }] },
 * //   "migrations": [{ "tag": "cooldowns-v1", "new_sqlite_classes": ["CooldownDurableObject"] }]
 * ```
 */
export class CooldownDurableObject {
  readonly #storage: CooldownObjectStorage;

  /** Made by the runtime, with the object's state. */
  constructor(state: CooldownObjectState, _env?: unknown) {
    this.#storage = state.storage;
  }

  /** `GET`: the entry's text (200) or nothing (204). `PUT`: keeps the body for the TTL header's ms. */
  async fetch(request: Request): Promise<Response> {
    if (request.method === "PUT") return this.#write(request);
    if (request.method !== "GET") return new Response(null, { status: 405 });
    const held = await this.#held();
    return held === undefined
      ? new Response(null, { status: 204 })
      : new Response(held.text, { status: 200 });
  }

  /** The alarm set by a write: the entry goes once it is over (a later write moved it on). */
  async alarm(): Promise<void> {
    const held = await this.#held();
    if (held !== undefined) await this.#storage.setAlarm(held.expires);
  }

  async #write(request: Request): Promise<Response> {
    const ttl = Number(request.headers.get(TTL_HEADER));
    const text = await request.text();
    if (!Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TTL_MS || text.length > MAX_TEXT) {
      return new Response(null, { status: 400 });
    }
    const expires = Date.now() + ttl;
    await this.#storage.put("entry", { text, expires } satisfies Held);
    await this.#storage.setAlarm(expires);
    return new Response(null, { status: 204 });
  }

  /** The entry while it lives; one that is over is dropped here. */
  async #held(): Promise<Held | undefined> {
    const held = (await this.#storage.get("entry")) as Partial<Held> | undefined;
    if (typeof held?.text === "string" && typeof held.expires === "number") {
      if (held.expires > Date.now()) return held as Held;
    }
    if (held !== undefined) await this.#storage.deleteAll();
    return undefined;
  }
}
