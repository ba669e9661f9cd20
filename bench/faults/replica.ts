// One replica of an MCP server under the fault suite, in its own process: a steady stream of
// guarded upstream calls over many partitions, through a RedisCooldownStore on the client kind
// it is given. It reports every answer to the suite (batched) with the time it was given, and
// obeys: `clock` (offset its wall clock, as a step of the system clock would), `synced`, `stop`
// (close the store and the client, then let the process end by itself); it ends at once when the
// suite is gone before asking it to stop. `CLOCK_SKEW_MS` starts
// it with a wrong system clock: its time origin and its wall clock both that far off, as a
// machine whose clock NTP has not corrected yet (a later `clock: 0` is the correction).
// `redisUrl` "sentinel:<host>:<port>:<name>" makes an ioredis client that follows failover.

import type { Redis as RedisClient } from "ioredis";

const [kind = "ioredis", redisUrl = "", upstreamUrl = "", partitionsArg = "200", rateArg = "100"] =
  process.argv.slice(2);
const partitions = Number(partitionsArg);
const rate = Number(rateArg);

// The suite's own timestamps, on the machine's monotonic clock (as upstream.ts), which no skew
// below touches.
const at = () => Number(process.hrtime.bigint()) / 1e6;
const trueOrigin = performance.timeOrigin;
const realNow = Date.now;
let offsetMs = Number(process.env.CLOCK_SKEW_MS ?? 0);
Date.now = () => realNow() + offsetMs;
if (offsetMs !== 0) {
  Object.defineProperty(performance, "timeOrigin", { value: trueOrigin + offsetMs });
}
// Imported after the skew, as a process started on that clock would read it.
const { Redis } = await import("ioredis");
const { createClient } = await import("redis");
const { isUpstreamRateLimitedError, RedisCooldownStore, throttledFetch } = await import(
  "../../src/index.js"
);

interface Connected {
  client: unknown;
  quit(): Promise<void>;
}

async function connect(): Promise<Connected> {
  if (redisUrl.startsWith("sentinel:")) {
    const [, host = "", port = "", name = ""] = redisUrl.split(":");
    // The client follows failover itself: it asks the sentinels for the master on every connect.
    const client: RedisClient = new Redis({ sentinels: [{ host, port: Number(port) }], name });
    client.on("error", () => {});
    return { client, quit: async () => void (await client.quit().catch(() => {})) };
  }
  if (kind === "ioredis") {
    const client = new Redis(redisUrl); // the defaults: an offline queue, 20 retries a command
    client.on("error", () => {});
    return { client, quit: async () => void (await client.quit().catch(() => {})) };
  }
  const client = createClient({ url: redisUrl });
  client.on("error", () => {});
  await client.connect();
  return {
    client,
    quit: async () => {
      await client.quit().catch(() => client.disconnect().catch(() => {}));
    },
  };
}

const redis = await connect();
let storeErrors = 0;
const store = new RedisCooldownStore({ client: redis.client as never, prefix: "faults:" });
const api = throttledFetch({
  limit: "search",
  cooldown: {
    store,
    partitionSecret: "the fault suite's shared partition secret",
  },
  // Every store failure, the store's own and the guard's, as a `store-error` event.
  onEvent: (event) => {
    if (event.type === "store-error") storeErrors += 1;
  },
});

// [outcome, partition, at, ms, left]: 0 ok, 1 throttle from the upstream, 2 cooldown, 3 other
// error; `left` the delay a throttle or a cooldown answer gave, in milliseconds.
type Answer = [number, number, number, number, number];
let records: Answer[] = [];
let inFlight = 0;

async function call(): Promise<void> {
  const partition = Math.floor(Math.random() * partitions);
  const started = performance.now();
  inFlight += 1;
  try {
    const response = await api(`${upstreamUrl}/search`, {
      headers: { authorization: `Bearer tenant-${partition}` },
    });
    await response.arrayBuffer();
    records.push([response.ok ? 0 : 3, partition, at(), performance.now() - started, 0]);
  } catch (error) {
    const outcome = !isUpstreamRateLimitedError(error)
      ? 3
      : error.delaySource === "cooldown"
        ? 2
        : 1;
    const left = isUpstreamRateLimitedError(error) ? (error.retryAfterMs ?? 0) : 0;
    records.push([outcome, partition, at(), performance.now() - started, left]);
  } finally {
    inFlight -= 1;
  }
}

// Calls at a steady rate, whatever the answers take (at most 150 in flight).
const caller = setInterval(() => {
  if (inFlight < 150) void call();
}, 1000 / rate);
const reporter = setInterval(() => {
  if (records.length === 0) return;
  process.send?.({ records });
  records = [];
}, 100);

let stopping = false;
// The suite itself is gone (killed): nothing will ask this replica to stop.
process.on("disconnect", () => {
  if (!stopping) process.exit(1);
});

process.on(
  "message",
  async (message: { id: number; clock?: number; synced?: true; stop?: true }) => {
    const reply = (value: object) => process.send?.({ id: message.id, ...value });
    if (message.clock !== undefined) {
      offsetMs = message.clock;
      return reply({});
    }
    if (message.synced) return reply({ synced: store.synced, storeErrors });
    if (message.stop) {
      stopping = true;
      clearInterval(caller);
      clearInterval(reporter);
      await store.close();
      await redis.quit();
      reply({ stopped: true });
      // Nothing else: the process must end on its own, or something kept it alive.
      process.disconnect?.();
    }
  },
);
process.send?.({ ready: true });
