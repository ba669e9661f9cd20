import { Agent, request } from "undici";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import {
  type CooldownEntry,
  type CooldownStore,
  parseRateLimitedResult,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { storeErrorsInto } from "../helpers/store-errors.js";
import { rejection } from "../helpers/throttle.js";

let upstream: TestServer | undefined;
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await upstream?.close();
  upstream = undefined;
});

/** An upstream that throttles the first `throttled` requests of each bearer token, then answers. */
async function upstreamThrottlingFirst(throttled: number, retryAfter = "1") {
  const seen = new Map<string, number>();
  upstream = await startServer((req, res) => {
    const token = req.headers.authorization ?? "";
    const count = (seen.get(token) ?? 0) + 1;
    seen.set(token, count);
    if (count <= throttled) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter });
      res.end(JSON.stringify({ message: "slow down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
  return upstream;
}

/**
 * Moves the cooldown's clock (`performance.now`, which its monotonic clock reads) by `ms`,
 * without waiting: the upstream and the sockets stay on real timers.
 */
async function wait(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe("cooldown on throttledFetch (in memory)", () => {
  it("answers a second call within the window without a request, with the time remaining; calls again after it", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { url } = await upstreamThrottlingFirst(1, "1");
    const guarded = throttledFetch({ limit: "search", cooldown: true });
    const first = await rejection(guarded(url));
    expect(first).toMatchObject({ retryAfterMs: 1000, delaySource: "retry-after" });
    await wait(300);
    const second = await rejection(guarded(url));
    expect(upstream?.requests).toBe(1);
    expect(second).toMatchObject({
      limit: "search",
      delaySource: "cooldown",
      retryAfterSeconds: 1,
    });
    // The limit and the time left, never the upstream's text (it may be another caller's).
    expect(second.upstreamMessage).toBeUndefined();
    expect(second.retryAfterMs).toBeGreaterThan(0);
    expect(second.retryAfterMs).toBeLessThanOrEqual(700);
    await wait(800);
    const third = await guarded(url);
    expect(third.status).toBe(200);
    expect(upstream?.requests).toBe(2);
  });

  it("keeps the cooldowns of two bearer tokens apart", async () => {
    const { url } = await upstreamThrottlingFirst(1, "30");
    const guarded = throttledFetch({ limit: "search", cooldown: true });
    await rejection(guarded(url, { headers: { authorization: "Bearer alice" } }));
    await rejection(guarded(url, { headers: { authorization: "Bearer alice" } }));
    expect(upstream?.requests).toBe(1);
    await rejection(guarded(url, { headers: { authorization: "Bearer bob" } }));
    expect(upstream?.requests).toBe(2);
  });

  it("stores neither raw credentials nor the query string, only a hash for the partition", async () => {
    const { url } = await upstreamThrottlingFirst(1, "30");
    const written: string[] = [];
    const store: CooldownStore = {
      shared: false,
      get: () => undefined,
      set: (key: string, entry: CooldownEntry) => {
        written.push(key, JSON.stringify(entry));
      },
    };
    const guarded = throttledFetch({ cooldown: { store } });
    await rejection(
      guarded(`${url}/x?api_key=QUERY_SECRET_1`, {
        headers: { authorization: "Bearer TOKEN_SECRET_2" },
      }),
    );
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^127\.0\.0\.1\|[0-9a-f]{64}$/);
    for (const text of written) {
      expect(text).not.toContain("QUERY_SECRET_1");
      expect(text).not.toContain("TOKEN_SECRET_2");
    }
  });

  it("uses the caller's partition function", async () => {
    const { url } = await upstreamThrottlingFirst(1, "30");
    const guarded = throttledFetch({ limit: "search", cooldown: { partition: () => "everyone" } });
    await rejection(guarded(url, { headers: { authorization: "Bearer alice" } }));
    const blocked = await rejection(guarded(url, { headers: { authorization: "Bearer bob" } }));
    expect(blocked.delaySource).toBe("cooldown");
    expect(upstream?.requests).toBe(1);
  });

  it("fails open when the store fails: calls go through, nothing throws, one store-error event", async () => {
    const { url } = await upstreamThrottlingFirst(0);
    const errors: unknown[] = [];
    const broken: CooldownStore = {
      shared: false,
      get: () => {
        throw new Error("store down");
      },
      set: () => Promise.reject(new Error("store down")),
    };
    const guarded = throttledFetch({
      limit: "search",
      cooldown: { store: broken },
      onEvent: storeErrorsInto(errors),
    });
    for (let i = 0; i < 3; i += 1) expect((await guarded(url)).status).toBe(200);
    expect(upstream?.requests).toBe(3);
    expect(errors).toHaveLength(1);
  });

  it("fails open when the store is too slow", async () => {
    const { url } = await upstreamThrottlingFirst(0);
    const errors: unknown[] = [];
    const hanging: CooldownStore = {
      shared: false,
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
    };
    const guarded = throttledFetch({
      limit: "search",
      cooldown: { store: hanging, storeTimeoutMs: 20 },
      onEvent: storeErrorsInto(errors),
    });
    expect((await guarded(url)).status).toBe(200);
    expect(errors).toMatchObject([{ type: "store-error", operation: "get", errorName: "Error" }]);
  });

  it("rejects bad cooldown options, naming them", () => {
    expect(() => throttledFetch({ cooldown: "yes" as never })).toThrow(/`cooldown`/);
    expect(() => throttledFetch({ cooldown: { store: {} as never } })).toThrow(/`cooldown.store`/);
    expect(() => throttledFetch({ cooldown: { storeTimeoutMs: -1 } })).toThrow(
      /`cooldown.storeTimeoutMs`/,
    );
  });
});

describe("cooldown on throttleInterceptor", () => {
  it("fails a request within the window without sending it", async () => {
    const { url } = await upstreamThrottlingFirst(1, "30");
    const agent = new Agent();
    agents.push(agent);
    // Its own limit: `cooldown: true` is one store per process, shared with the tests above.
    const dispatcher = agent.compose(throttleInterceptor({ limit: "lookup", cooldown: true }));
    await rejection(request(url, { dispatcher }));
    const second = await rejection(request(url, { dispatcher }));
    expect(second).toMatchObject({ delaySource: "cooldown", limit: "lookup" });
    expect(second.retryAfterSeconds).toBeLessThanOrEqual(30);
    expect(upstream?.requests).toBe(1);
    const other = await rejection(
      request(url, { dispatcher, headers: { authorization: "Bearer bob" } }),
    );
    expect(other.delaySource).toBe("retry-after");
    expect(upstream?.requests).toBe(2);
  });
});

describe("cooldown on withUpstreamThrottle", () => {
  it("answers later calls from the cooldown, keyed to the upstream request's credential", async () => {
    const { url } = await upstreamThrottlingFirst(1, "30");
    const upstreamFetch = throttledFetch();
    let runs = 0;
    const tool = withUpstreamThrottle(
      async (_args: { q: string }, _extra: { authInfo?: { token: string } }) => {
        runs += 1;
        await upstreamFetch(url);
        return { content: [] };
      },
      { limit: "search", cooldown: true },
    );
    const alice = { authInfo: { token: "alice" } };
    expect(parseRateLimitedResult(await tool({ q: "a" }, alice))?.retry_after_seconds).toBe(30);
    const again = parseRateLimitedResult(await tool({ q: "a" }, alice));
    expect(again?.retry_after_seconds).toBeLessThanOrEqual(30);
    expect(upstream?.requests).toBe(1);
    // The upstream request carries no credential of the caller: the upstream limits the
    // server, so bob is held by the same cooldown. The callback runs; its fetch is answered.
    const bob = { authInfo: { token: "bob" } };
    expect(parseRateLimitedResult(await tool({ q: "a" }, bob))?.limit).toBe("search");
    expect(upstream?.requests).toBe(1);
    expect(runs).toBe(3);
  });

  it("needs a limit to remember a throttle under", () => {
    expect(() => withUpstreamThrottle(async () => ({ content: [] }), { cooldown: true })).toThrow(
      /`cooldown` needs `limit`/,
    );
  });
});
