// HttpRedisCooldownStore against a REST endpoint that never answers (a real node:http server on
// port 0 that takes the request and sends nothing), through the real `@upstash/redis` client made
// with the store's signal: a request the guard stopped waiting for is aborted, and `close()`
// aborts what is still in flight, so no connection that carried a request outlives it (undici may
// open an idle one in its place, which holds nothing and keeps no process alive).

import { Redis } from "@upstash/redis";
import { afterEach, describe, expect, it } from "vitest";
import { HttpRedisCooldownStore, throttledFetch } from "../../src/index.js";
import { cannedReply, eventually, startServer, type TestServer } from "../helpers/http-server.js";
import { storeErrorsInto } from "../helpers/store-errors.js";

const partitionSecret = "a-secret-of-at-least-16-characters";
const servers: TestServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A REST endpoint that reads each request and never answers it. */
async function silentRedis(): Promise<TestServer> {
  const server = await startServer((req) => req.resume());
  servers.push(server);
  return server;
}

async function okUpstream(): Promise<TestServer> {
  const server = await startServer(cannedReply(() => ({ status: 200, headers: {}, body: "ok" })));
  servers.push(server);
  return server;
}

function storeOn(rest: TestServer, timeoutMs?: number) {
  return new HttpRedisCooldownStore({
    client: ({ signal }) => new Redis({ url: rest.url, token: "token", signal, retry: false }),
    timeoutMs,
  });
}

describe("HttpRedisCooldownStore and a Redis that never answers", () => {
  it("aborts the GET it stopped waiting for (the default 1 s): the endpoint sees its connection closed", async () => {
    const rest = await silentRedis();
    const upstream = await okUpstream();
    const errors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: storeOn(rest), partitionSecret },
      onEvent: storeErrorsInto(errors),
    });
    expect((await api(upstream.url)).status).toBe(200);
    expect(rest.requests).toBe(1);
    expect(await eventually(() => rest.usedConnectionsOpen === 0)).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it("close() aborts what is in flight, and later calls fail open, reported once", async () => {
    const rest = await silentRedis();
    const upstream = await okUpstream();
    const store = storeOn(rest, 60_000);
    const errors: unknown[] = [];
    const api = throttledFetch({
      limit: "search",
      cooldown: { store, partitionSecret },
      onEvent: storeErrorsInto(errors),
    });
    const first = api(upstream.url);
    expect(await eventually(() => rest.requests === 1)).toBe(true);
    expect(rest.usedConnectionsOpen).toBe(1);
    await store.close();
    // The call in flight goes on to the upstream as soon as its GET is aborted.
    expect((await first).status).toBe(200);
    expect(await eventually(() => rest.usedConnectionsOpen === 0)).toBe(true);
    for (let i = 0; i < 3; i += 1) expect((await api(upstream.url)).status).toBe(200);
    expect(rest.requests).toBe(1);
    expect(errors).toHaveLength(1);
    await expect(store.get("search|x")).rejects.toThrow(/closed/);
    await expect(store.close()).resolves.toBeUndefined();
  });

  it("close() with a client of its own (no signal) stops every later call from reaching it", async () => {
    const calls: string[] = [];
    const client = {
      get: async (key: string) => {
        calls.push(key);
        return null;
      },
      set: async () => "OK",
    };
    const store = new HttpRedisCooldownStore({ client });
    await store.close();
    await expect(store.get("search|x")).rejects.toThrow(/closed/);
    await expect(
      store.set("search|x", { until: 1e15, limit: "s", limitSource: "option", status: 429 }, 1000),
    ).rejects.toThrow(/closed/);
    expect(calls).toEqual([]);
  });
});
