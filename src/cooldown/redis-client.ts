// The Redis clients people use, each with its own command shapes: ioredis and its Valkey fork
// iovalkey (`set(key, value, "PX", ms)`, lower-case `pttl`, events on the client), and
// node-redis v4 and later (`set(key, value, { PX: ms })`, `pTTL`, `connect()` before use).
// None is imported: the store speaks to the client it is given.

/** The commands the store needs, the same for every client. */
export interface RedisCommands {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<unknown>;
  /** Milliseconds left on `key`; negative when it has none or does not exist. */
  pttl(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<unknown>;
  /** One page of keys matching `pattern`, and the cursor of the next ("0" when done). */
  scan(cursor: string, pattern: string): Promise<{ cursor: string; keys: string[] }>;
  /** Opens a second connection subscribed to `channel`. */
  subscribe(channel: string, handlers: SubscriptionHandlers): Promise<Subscription>;
  /** Runs `onEnd` once when the client itself is closed for good. */
  onEnd(onEnd: () => void): void;
}

export interface SubscriptionHandlers {
  message(message: string): void;
  /** The subscription is live (again): announcements flow from now on. */
  up(): void;
  /** The subscription dropped: announcements may be missed until `up`. */
  down(error?: unknown): void;
}

export interface Subscription {
  close(): Promise<void>;
}

/** A client of either family, as far as the store can tell before using it. */
export interface RedisLikeClient {
  /** Redis `GET`. */
  get(key: string): Promise<unknown>;
  /** Redis `SET`, in the client's own argument form. */
  set(key: string, value: string, ...rest: never[]): Promise<unknown>;
}

type Command = (...args: unknown[]) => Promise<unknown>;

/** The methods read from either family, once its family is known. */
interface Client {
  get: Command;
  set: Command;
  publish: Command;
  scan: Command;
  pttl: Command;
  pTTL: Command;
  duplicate(): Client;
  connect: Command;
  subscribe: Command;
  quit?: Command;
  close?: Command;
  disconnect?: Command;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** Adapts a client to `RedisCommands`, telling the families apart by their methods. */
export function redisCommands(client: RedisLikeClient): RedisCommands {
  const candidate = client as unknown as Partial<Client>;
  const has = (name: keyof Client) => typeof candidate[name] === "function";
  const base = has("publish") && has("duplicate") && has("scan") && has("on");
  // node-redis spells commands in camel case and has `isOpen`; ioredis has lower-case `pttl`.
  if (base && has("pTTL") && "isOpen" in client) return nodeRedis(candidate as Client);
  if (base && has("pttl")) return ioredis(candidate as Client);
  throw new TypeError(
    "`client` must be an ioredis, iovalkey or node-redis (v4 or later) client; for anything else, write a `CooldownStore`",
  );
}

function ioredis(client: Client): RedisCommands {
  return {
    get: (key) => client.get(key) as Promise<string | null>,
    set: (key, value, ttlMs) => client.set(key, value, "PX", ttlMs) as Promise<unknown>,
    pttl: (key) => client.pttl(key) as Promise<number>,
    publish: (channel, message) => client.publish(channel, message) as Promise<unknown>,
    scan: async (cursor, pattern) => {
      const [next, keys] = (await client.scan(cursor, "MATCH", pattern, "COUNT", 500)) as [
        string,
        string[],
      ];
      return { cursor: String(next), keys };
    },
    subscribe: async (channel, handlers) => {
      const subscriber = client.duplicate();
      subscriber.on("message", (...args: unknown[]) => {
        if (args[0] === channel && typeof args[1] === "string") handlers.message(args[1]);
      });
      // ioredis subscribes again by itself after a reconnect, before it says "ready".
      subscriber.on("ready", () => handlers.up());
      subscriber.on("close", () => handlers.down());
      subscriber.on("error", (error: unknown) => handlers.down(error));
      await subscriber.subscribe(channel);
      handlers.up();
      return {
        close: async () => {
          await Promise.resolve(subscriber.quit?.()).catch(() => subscriber.disconnect?.());
        },
      };
    },
    onEnd: (onEnd) => client.on("end", onEnd),
  };
}

function nodeRedis(client: Client): RedisCommands {
  return {
    get: (key) => client.get(key) as Promise<string | null>,
    set: (key, value, ttlMs) => client.set(key, value, { PX: ttlMs }) as Promise<unknown>,
    pttl: (key) => client.pTTL(key) as Promise<number>,
    publish: (channel, message) => client.publish(channel, message) as Promise<unknown>,
    scan: async (cursor, pattern) => {
      // v4 answers a number cursor, v5 and later a string; both take a string.
      const reply = (await client.scan(cursor, { MATCH: pattern, COUNT: 500 })) as {
        cursor: string | number;
        keys: string[];
      };
      return { cursor: String(reply.cursor), keys: reply.keys };
    },
    subscribe: async (channel, handlers) => {
      const subscriber = client.duplicate();
      // node-redis subscribes again by itself after a reconnect, then says "ready".
      subscriber.on("ready", () => handlers.up());
      subscriber.on("reconnecting", () => handlers.down());
      subscriber.on("end", () => handlers.down());
      subscriber.on("error", (error: unknown) => handlers.down(error));
      await subscriber.connect();
      await subscriber.subscribe(channel, (message: unknown) => {
        if (typeof message === "string") handlers.message(message);
      });
      handlers.up();
      return {
        close: async () => {
          const close = subscriber.close ?? subscriber.quit ?? subscriber.disconnect;
          await Promise.resolve(close?.call(subscriber)).catch(() => {});
        },
      };
    },
    onEnd: (onEnd) => client.on("end", onEnd),
  };
}
