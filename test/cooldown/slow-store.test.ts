// A shared store slower than its timeout (a custom `shared: true` store answering in 300 ms, at
// the default 250 ms): the throttle this isolate has just seen is answered from the isolate's own
// memory, in front of the store, whatever became of the write. Real upstream on port 0.

import fc from "fast-check";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { type CooldownStore, throttledFetch } from "../../src/index.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const partitionSecret = "a-secret-of-at-least-16-characters";
let upstream: TestServer | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** Every request is throttled with `retry-after: 30`. */
async function throttlingUpstream(retryAfter = "30") {
  upstream = await startServer((req, res) => {
    req.resume();
    res.writeHead(429, { "retry-after": retryAfter });
    res.end();
  });
  return upstream;
}

/** A shared store that answers everything in `ms` (nothing stored: a Redis a slow network away). */
function slowStore(ms: number): CooldownStore {
  const later = () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));
  return { shared: true, get: later, set: later };
}

const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe("a shared store slower than its timeout", () => {
  it("after one 429, more calls inside the delay send nothing upstream", async () => {
    const server = await throttlingUpstream();
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: slowStore(300), partitionSecret },
    });
    await expect(api(server.url, as("alice"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    for (let i = 0; i < 5; i += 1) {
      await expect(api(server.url, as("alice"))).rejects.toMatchObject({
        delaySource: "cooldown",
        limit: "search",
      });
    }
    expect(server.requests).toBe(1);
  });

  it("never answers for another partition: bob's call still goes to the upstream", async () => {
    const server = await throttlingUpstream();
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: slowStore(300), partitionSecret },
    });
    await expect(api(server.url, as("alice"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    await expect(api(server.url, as("bob"))).rejects.toMatchObject({ delaySource: "retry-after" });
    expect(server.requests).toBe(2);
  });

  it("forgets the throttle when its delay is over: the next call reaches the upstream", async () => {
    // The cooldown's monotonic clock reads `performance.now`: moved by hand, sockets on real timers.
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const server = await throttlingUpstream("1");
    const api = throttledFetch({
      limit: "search",
      cooldown: { store: slowStore(0), partitionSecret },
    });
    await expect(api(server.url, as("carol"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    await expect(api(server.url, as("carol"))).rejects.toMatchObject({ delaySource: "cooldown" });
    await vi.advanceTimersByTimeAsync(1001);
    await expect(api(server.url, as("carol"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    expect(server.requests).toBe(2);
  });
});

describe("a shared store that fails every operation", () => {
  it("answers a caller's own throttle from memory, and never another caller's", async () => {
    const failing: CooldownStore = {
      shared: true,
      get: () => Promise.reject(new Error("down")),
      set: () => Promise.reject(new Error("down")),
    };
    const token = fc
      .string({ minLength: 1, maxLength: 24 })
      .filter((t) => /^[\x21-\x7e]+$/.test(t));
    await fc.assert(
      fc.asyncProperty(token, token, async (a, b) => {
        fc.pre(a !== b);
        const sent: string[] = [];
        const api = throttledFetch({
          limit: "search",
          fetch: (async (_url: unknown, init?: RequestInit) => {
            sent.push(new Headers(init?.headers).get("authorization") ?? "");
            return new Response(null, { status: 429, headers: { "retry-after": "30" } });
          }) as typeof fetch,
          cooldown: { store: failing, partitionSecret },
        });
        await expect(api("https://api.example/", as(a))).rejects.toMatchObject({
          delaySource: "retry-after",
        });
        await expect(api("https://api.example/", as(a))).rejects.toMatchObject({
          delaySource: "cooldown",
        });
        await expect(api("https://api.example/", as(b))).rejects.toMatchObject({
          delaySource: "retry-after",
        });
        expect(sent).toEqual([`Bearer ${a}`, `Bearer ${b}`]);
      }),
      { numRuns: 100 },
    );
  });
});

describe("the memory in front of a shared store", () => {
  it("is bounded: past 10,000 throttles the oldest are forgotten, the newest still answered", async () => {
    const failing: CooldownStore = {
      shared: true,
      get: () => Promise.reject(new Error("down")),
      set: () => Promise.reject(new Error("down")),
    };
    let sent = 0;
    const api = throttledFetch({
      limit: "search",
      fetch: (async () => {
        sent += 1;
        return new Response(null, { status: 429, headers: { "retry-after": "600" } });
      }) as typeof fetch,
      cooldown: { store: failing, partitionSecret },
    });
    const callers = 12_000;
    for (let i = 0; i < callers; i += 1) {
      await api("https://api.example/", as(`caller-${i}`)).catch(() => {});
    }
    expect(sent).toBe(callers);
    await expect(api("https://api.example/", as(`caller-${callers - 1}`))).rejects.toMatchObject({
      delaySource: "cooldown",
    });
    await expect(api("https://api.example/", as("caller-0"))).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    expect(sent).toBe(callers + 1);
  });
});
