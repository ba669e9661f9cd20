// CooldownDurableObject and DurableObjectCooldownStore in Node: the class itself, over an
// in-memory storage with the Durable Object storage calls it makes, one object per name as the
// runtime gives them. The same code runs in workerd across two isolates in .ci/runtimes.sh.

import { describe, expect, it, onTestFinished, vi } from "vitest";
import {
  CooldownDurableObject,
  type CooldownObjectStorage,
  DurableObjectCooldownStore,
  type DurableObjectNamespaceLike,
} from "../../src/cloudflare.js";
import { throttledFetch } from "../../src/index.js";
import { storeErrorsInto } from "../helpers/store-errors.js";

const partitionSecret = "a-secret-of-at-least-16-characters";

function memoryStorage(): CooldownObjectStorage & { alarm: number | undefined } {
  const data = new Map<string, unknown>();
  return {
    alarm: undefined,
    get: async (key) => data.get(key),
    put: async (key, value) => void data.set(key, structuredClone(value)),
    deleteAll: async () => data.clear(),
    async setAlarm(time) {
      this.alarm = time;
    },
  };
}

/** A namespace: one object per name, made on first use, its storage its own. */
type ObjectLike = { fetch(request: Request): Promise<Response> };
function namespace(
  make: (storage: CooldownObjectStorage) => ObjectLike = (storage) =>
    new CooldownDurableObject({ storage }),
) {
  const objects = new Map<string, { fetch(request: Request): Promise<Response> }>();
  const named: DurableObjectNamespaceLike & { objects: typeof objects } = {
    objects,
    idFromName: (name) => name,
    get: (id) => ({
      fetch: async (input, init) => {
        const name = id as unknown as string;
        if (!objects.has(name)) objects.set(name, make(memoryStorage()));
        return objects.get(name)?.fetch(new Request(input, init)) as Promise<Response>;
      },
    }),
  };
  return named;
}

const throttling = (async () =>
  new Response("{}", { status: 429, headers: { "retry-after": "30" } })) as typeof fetch;
const ok = (async () => new Response("ok")) as typeof fetch;

describe("CooldownDurableObject", () => {
  it("keeps an entry for its TTL, answers 204 after it, and collects it at the alarm", async () => {
    const storage = memoryStorage();
    const object = new CooldownDurableObject({ storage });
    const put = (ttl: string, body = '{"until":1}') =>
      object.fetch(
        new Request("https://x/", { method: "PUT", headers: { "x-cooldown-ttl-ms": ttl }, body }),
      );
    expect((await put("60000")).status).toBe(204);
    expect(storage.alarm).toBeGreaterThan(Date.now() + 59_000);
    const read = await object.fetch(new Request("https://x/"));
    expect(await read.text()).toBe('{"until":1}');
    // The object's clock is `Date`: simulated from here, so the 1 ms TTL is over without a wait.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    expect((await put("1")).status).toBe(204);
    vi.advanceTimersByTime(5);
    await object.alarm();
    expect((await object.fetch(new Request("https://x/"))).status).toBe(204);
    expect(await storage.get("entry")).toBeUndefined();
  });

  it("refuses a write with no usable TTL or a body no entry has, and methods it does not serve", async () => {
    const object = new CooldownDurableObject({ storage: memoryStorage() });
    const writes: [string, string][] = [
      ["", "{}"],
      ["-5", "{}"],
      ["1.5", "{}"],
      ["86400001", "{}"],
      ["1000", "x".repeat(5000)],
    ];
    for (const [ttl, body] of writes) {
      const request = new Request("https://x/", {
        method: "PUT",
        headers: { "x-cooldown-ttl-ms": ttl },
        body,
      });
      expect((await object.fetch(request)).status).toBe(400);
    }
    expect((await object.fetch(new Request("https://x/", { method: "DELETE" }))).status).toBe(405);
  });
});

describe("DurableObjectCooldownStore", () => {
  it("shares a throttle between two isolates through one object per key", async () => {
    const objects = namespace();
    const isolate = (fetch: typeof globalThis.fetch) =>
      throttledFetch({
        limit: "search",
        fetch,
        cooldown: {
          store: new DurableObjectCooldownStore({ namespace: objects }),
          partitionSecret,
        },
      });
    await expect(isolate(throttling)("https://api.example/")).rejects.toMatchObject({
      delaySource: "retry-after",
    });
    await expect(isolate(ok)("https://api.example/")).rejects.toMatchObject({
      delaySource: "cooldown",
    });
    expect(objects.objects.size).toBe(1);
  });

  it("shares a throttle longer than a day when maxRetryAfterSeconds allows one", async () => {
    const objects = namespace();
    const errors: unknown[] = [];
    const twoDays = (async () =>
      new Response("{}", { status: 429, headers: { "retry-after": "172800" } })) as typeof fetch;
    const isolate = (fetch: typeof globalThis.fetch) =>
      throttledFetch({
        limit: "search",
        fetch,
        maxRetryAfterSeconds: 172_800,
        cooldown: {
          store: new DurableObjectCooldownStore({ namespace: objects }),
          partitionSecret,
        },
        onEvent: storeErrorsInto(errors),
      });
    await expect(isolate(twoDays)("https://api.example/")).rejects.toMatchObject({
      retryAfterSeconds: 172_800,
    });
    await expect(isolate(ok)("https://api.example/")).rejects.toMatchObject({
      delaySource: "cooldown",
    });
    expect(errors).toStrictEqual([]);
  });

  it("fails open on an object that answers an error status or garbage, reporting once each", async () => {
    const errors: unknown[] = [];
    const broken = namespace(() => ({ fetch: async () => new Response("no", { status: 500 }) }));
    const api = throttledFetch({
      limit: "search",
      fetch: ok,
      cooldown: {
        store: new DurableObjectCooldownStore({ namespace: broken }),
        partitionSecret,
      },
      onEvent: storeErrorsInto(errors),
    });
    for (let i = 0; i < 3; i += 1) expect((await api("https://api.example/")).status).toBe(200);
    expect(errors).toHaveLength(1);
    expect(errors).toMatchObject([{ type: "store-error", operation: "get" }]);
    const planted = namespace(() => ({
      fetch: async () => new Response("<script>", { status: 200 }),
    }));
    const invalid: unknown[] = [];
    const other = throttledFetch({
      limit: "search",
      fetch: ok,
      cooldown: {
        store: new DurableObjectCooldownStore({ namespace: planted }),
        partitionSecret,
      },
      onEvent: storeErrorsInto(invalid),
    });
    for (let i = 0; i < 2; i += 1) expect((await other("https://api.example/")).status).toBe(200);
    expect(invalid).toHaveLength(1);
    expect(invalid).toMatchObject([{ operation: "entry", errorName: "InvalidCooldownEntryError" }]);
  });

  it("rejects bad options, naming them, and declares a one-second wait", () => {
    expect(() => new DurableObjectCooldownStore(undefined as never)).toThrow(TypeError);
    expect(() => new DurableObjectCooldownStore({ namespace: {} as never })).toThrow(/`namespace`/);
    const objects = namespace();
    expect(() => new DurableObjectCooldownStore({ namespace: objects, timeoutMs: -1 })).toThrow(
      /`timeoutMs`/,
    );
    expect(
      () => new DurableObjectCooldownStore({ namespace: objects, maxKnownEntries: 0 }),
    ).toThrow(/`maxKnownEntries`/);
    expect(new DurableObjectCooldownStore({ namespace: objects }).timeoutMs).toBe(1000);
  });
});
