// The Redis clients people use, each with its own command shapes: ioredis and its Valkey fork
// iovalkey (`set(key, value, "PX", ms)`, lower-case `pttl`, events on the client), and
// node-redis v4 and later (`set(key, value, { PX: ms })`, `pTTL`, `connect()` before use).
// None is imported: the store speaks to the client it is given.

/** The commands the store needs, the same for every client. */
export interface RedisCommands {
  get(key: string): Promise<string | null>;
  /** The values of `keys`, in order (`null` where there is none). */
  mget(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlMs: number): Promise<unknown>;
  ping(): Promise<unknown>;
  /**
   * Whether the client says it lost its connection (reconnecting, or ended): a command now would
   * wait in its offline queue or fail. A client still making its first connection is not lost.
   */
  lost(): boolean;
  /** Milliseconds left on `key`; negative when it has none or does not exist. */
  pttl(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<unknown>;
  /** One page of about `count` keys matching `pattern`, and the cursor of the next ("0" when done). */
  scan(cursor: string, pattern: string, count: number): Promise<{ cursor: string; keys: string[] }>;
  /** `EVAL script 0 ...args`: the raw reply. */
  eval(script: string, args: string[]): Promise<unknown>;
  /** Any command, as its words: the raw reply (strings, numbers, arrays of them). */
  command(args: string[]): Promise<unknown>;
  /**
   * `MULTI` … `EXEC`: the reply of each command, in order; a command Redis refused inside the
   * transaction (a key of the wrong type) is an `Error` in its place, not a rejection.
   */
  multi(commands: string[][]): Promise<unknown[]>;
  /**
   * Opens a second connection subscribed to `channel`. Returns at once: the subscription is made
   * when that connection is ready (a client without an offline queue refuses it before), and
   * `up` is called only once it is made, after each (re)connect.
   */
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
  mget: Command;
  mGet: Command;
  ping: Command;
  set: Command;
  publish: Command;
  scan: Command;
  pttl: Command;
  pTTL: Command;
  multi(): { addCommand?(args: string[]): unknown; call?: Command; exec: Command };
  duplicate(): Client;
  connect: Command;
  subscribe: Command;
  /** ioredis: any command by name */
  call: Command;
  /** node-redis: any command as an array */
  sendCommand: Command;
  quit?: Command;
  close?: Command;
  disconnect?: Command;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** ioredis: "wait", "connecting", "ready", "end", … */
  status?: string;
  /** node-redis */
  isReady?: boolean;
  isOpen?: boolean;
}

const LOST_IOREDIS: ReadonlySet<string | undefined> = new Set(["reconnecting", "close", "end"]);

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
    mget: (keys) => client.mget(...keys) as Promise<(string | null)[]>,
    set: (key, value, ttlMs) => client.set(key, value, "PX", ttlMs) as Promise<unknown>,
    ping: () => client.ping(),
    eval: (script, args) => client.call("EVAL", script, "0", ...args),
    command: (args) => client.call(...args),
    multi: async (commands) => {
      // ioredis answers [[error, reply], …]; EXEC itself refused (no connection) rejects.
      const transaction = client.multi();
      for (const [name, ...args] of commands) transaction.call?.(name as string, ...args);
      const replies = (await transaction.exec()) as [Error | null, unknown][] | null;
      if (replies === null) throw new Error("the transaction was aborted");
      return replies.map(([error, reply]) => error ?? reply);
    },
    lost: () => LOST_IOREDIS.has(client.status),
    pttl: (key) => client.pttl(key) as Promise<number>,
    publish: (channel, message) => client.publish(channel, message) as Promise<unknown>,
    scan: async (cursor, pattern, count) => {
      const [next, keys] = (await client.scan(cursor, "MATCH", pattern, "COUNT", count)) as [
        string,
        string[],
      ];
      return { cursor: String(next), keys };
    },
    subscribe: async (channel, handlers) => {
      const subscriber = client.duplicate();
      let closed = false;
      // After every (re)connect: SUBSCRIBE (again; it is idempotent), and only then `up`. Sent
      // before "ready", a client with `enableOfflineQueue: false` rejects it.
      const subscribe = () => {
        subscriber.subscribe(channel).then(
          () => closed || handlers.up(),
          (error: unknown) => closed || handlers.down(error),
        );
      };
      subscriber.on("message", (...args: unknown[]) => {
        if (args[0] === channel && typeof args[1] === "string") handlers.message(args[1]);
      });
      subscriber.on("ready", subscribe);
      subscriber.on("close", () => closed || handlers.down());
      subscriber.on("error", (error: unknown) => closed || handlers.down(error));
      if (subscriber.status === "ready") subscribe();
      else if (subscriber.status === "wait") subscriber.connect().catch(() => {});
      return {
        close: async () => {
          closed = true;
          await Promise.resolve(subscriber.quit?.()).catch(() => {});
          // Whatever quit did (refused without an offline queue), nothing reconnects after this.
          subscriber.disconnect?.();
        },
      };
    },
    onEnd: (onEnd) => client.on("end", onEnd),
  };
}

function nodeRedis(client: Client): RedisCommands {
  // Lost only once it was ready: a client still connecting (or not yet) has its commands wait.
  let readyOnce = client.isReady === true;
  client.on("ready", () => {
    readyOnce = true;
  });
  return {
    get: (key) => client.get(key) as Promise<string | null>,
    mget: (keys) => client.mGet(keys) as Promise<(string | null)[]>,
    set: (key, value, ttlMs) => client.set(key, value, { PX: ttlMs }) as Promise<unknown>,
    ping: () => client.ping(),
    eval: (script, args) => client.sendCommand(["EVAL", script, "0", ...args]),
    command: (args) => client.sendCommand(args),
    multi: async (commands) => {
      const transaction = client.multi();
      for (const args of commands) transaction.addCommand?.(args);
      try {
        return (await transaction.exec()) as unknown[];
      } catch (error) {
        // v4 and later: a command refused inside EXEC rejects with every reply (MultiErrorReply).
        const replies = (error as { replies?: unknown })?.replies;
        if (Array.isArray(replies)) return replies;
        throw error;
      }
    },
    lost: () => readyOnce && client.isReady !== true,
    pttl: (key) => client.pTTL(key) as Promise<number>,
    publish: (channel, message) => client.publish(channel, message) as Promise<unknown>,
    scan: async (cursor, pattern, count) => {
      // v4 answers a number cursor, v5 and later a string; both take a string.
      const reply = (await client.scan(cursor, { MATCH: pattern, COUNT: count })) as {
        cursor: string | number;
        keys: string[];
      };
      return { cursor: String(reply.cursor), keys: reply.keys };
    },
    subscribe: (channel, handlers) => nodeRedisSubscribe(client, channel, handlers),
    onEnd: (onEnd) => client.on("end", onEnd),
  };
}

/** node-redis's subscription: a duplicate of the client, connected and subscribed in the background. */
async function nodeRedisSubscribe(
  client: Client,
  channel: string,
  handlers: SubscriptionHandlers,
): Promise<Subscription> {
  const subscriber = client.duplicate();
  let closed = false;
  let subscribed = false;
  // node-redis subscribes again by itself after a reconnect, then says "ready".
  subscriber.on("ready", () => subscribed && !closed && handlers.up());
  subscriber.on("reconnecting", () => closed || handlers.down());
  subscriber.on("end", () => closed || handlers.down());
  subscriber.on("error", (error: unknown) => closed || handlers.down(error));
  // In the background: a Redis that is down at start must not leave a connection behind
  // that nothing closes (`close` ends it, connected or not).
  subscriber
    .connect()
    .then(() =>
      subscriber.subscribe(channel, (message: unknown) => {
        if (typeof message === "string") handlers.message(message);
      }),
    )
    .then(
      () => {
        subscribed = true;
        if (!closed) handlers.up();
      },
      (error: unknown) => closed || handlers.down(error),
    );
  return {
    close: async () => {
      closed = true;
      const close = subscriber.close ?? subscriber.quit ?? subscriber.disconnect;
      await Promise.resolve(close?.call(subscriber)).catch(() => {});
      await Promise.resolve(subscriber.disconnect?.call(subscriber)).catch(() => {});
    },
  };
}

/** The transaction's replies, or the first command's error (the entry's own SET). */
export function failedFirst(replies: unknown[]): unknown[] {
  if (replies[0] instanceof Error) throw replies[0];
  return replies;
}
