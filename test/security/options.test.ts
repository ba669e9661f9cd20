// Mistakes in options fail at construction, with a message naming the option — never a timer
// that fires at once, a truthy string taken for `true`, or a TypeError from deep inside.

import { describe, expect, it } from "vitest";
import {
  detectThrottle,
  fanOutTool,
  MemoryCooldownStore,
  RedisCooldownStore,
  throttledFetch,
  throttleInterceptor,
  toUpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";

const TOO_LONG = 2 ** 31; // setTimeout fires after 1 ms for anything longer than 2^31-1

describe("bad options throw at construction, naming the option", () => {
  it.each([
    [
      "bodyTimeoutMs above 2^31-1",
      () => throttledFetch({ bodyTimeoutMs: TOO_LONG }),
      /`bodyTimeoutMs` must be at most 2147483647/,
    ],
    [
      "storeTimeoutMs above 2^31-1",
      () => throttledFetch({ cooldown: { storeTimeoutMs: TOO_LONG } }),
      /`cooldown.storeTimeoutMs`/,
    ],
    [
      "retry.maxWaitMs above 2^31-1",
      () => throttledFetch({ retry: { maxWaitMs: TOO_LONG } }),
      /`retry.maxWaitMs`/,
    ],
    [
      "graceMs above 2^31-1",
      () => fanOutTool({ parts: () => ({}), merge: () => ({}), graceMs: TOO_LONG }),
      /`graceMs`/,
    ],
    [
      "interceptor bodyTimeoutMs above 2^31-1",
      () => throttleInterceptor({ bodyTimeoutMs: TOO_LONG }),
      /`bodyTimeoutMs`/,
    ],
    [
      "withUpstreamThrottle bodyTimeoutMs above 2^31-1",
      () => withUpstreamThrottle(async () => ({}), { bodyTimeoutMs: TOO_LONG }),
      /`bodyTimeoutMs`/,
    ],
    [
      'treat503AsThrottle: "no"',
      () => throttledFetch({ treat503AsThrottle: "no" as never }),
      /`treat503AsThrottle` must be true or false/,
    ],
    [
      "treat503AsThrottle on the handler",
      () => withUpstreamThrottle(async () => ({}), { treat503AsThrottle: 1 as never }),
      /`treat503AsThrottle`/,
    ],
    [
      "treat503AsThrottle on detectThrottle",
      () => detectThrottle({ status: 503, headers: {} }, { treat503AsThrottle: "yes" as never }),
      /`treat503AsThrottle`/,
    ],
    [
      "treat503AsThrottle on toUpstreamRateLimitedError",
      () => toUpstreamRateLimitedError({}, { treat503AsThrottle: "yes" as never }),
      /`treat503AsThrottle`/,
    ],
    [
      "RedisCooldownStore({ prefix: 5 })",
      () =>
        new RedisCooldownStore({
          client: { get: async () => null, set: async () => "OK" },
          prefix: 5 as never,
        }),
      /`prefix`/,
    ],
    [
      "MemoryCooldownStore({ now: 5 })",
      () => new MemoryCooldownStore({ now: 5 as never }),
      /`now` must be a function/,
    ],
    [
      "fanOutTool({ signal: 5 })",
      () => fanOutTool({ parts: () => ({}), merge: () => ({}), signal: 5 as never }),
      /`signal` must be a function/,
    ],
    [
      "retry.methods: [1]",
      () => throttledFetch({ retry: { methods: [1] as never } }),
      /`retry.methods` must be an array of strings/,
    ],
    [
      'relayUpstreamText: "raw"',
      () => throttledFetch({ relayUpstreamText: "raw" as never }),
      /`relayUpstreamText` must be "sanitized" or "none"/,
    ],
    [
      "onEvent: true",
      () => throttledFetch({ onEvent: true as never }),
      /`onEvent` must be a function/,
    ],
    ["fetch: 5", () => throttledFetch({ fetch: 5 as never }), /`fetch` must be a function/],
    [
      "options that are a string",
      () => throttledFetch("fast" as never),
      /`options` must be an object/,
    ],
    [
      "cooldown.partition: 5",
      () => throttledFetch({ cooldown: { partition: 5 as never } }),
      /`cooldown.partition`/,
    ],
    [
      "detectThrottle credentials: 5",
      () => detectThrottle({ status: 429, headers: {} }, { credentials: 5 as never }),
      /`credentials`/,
    ],
    [
      "a client of no known family",
      () => new RedisCooldownStore({ client: { get: async () => null, set: async () => "OK" } }),
      /ioredis, iovalkey or node-redis/,
    ],
  ])("%s", (_name, build, message) => {
    expect(build).toThrow(message);
  });

  it("accepts undefined wherever an option is optional (exactOptionalPropertyTypes callers)", () => {
    const limit: string | undefined = undefined;
    expect(() =>
      throttledFetch({ limit, bodyTimeoutMs: undefined, retry: undefined }),
    ).not.toThrow();
    expect(() => throttleInterceptor({ limit, cooldown: undefined })).not.toThrow();
    expect(() =>
      withUpstreamThrottle(async () => ({}), { limit, outputSchema: undefined }),
    ).not.toThrow();
    expect(() => detectThrottle({ status: 429, headers: {} }, { now: undefined })).not.toThrow();
  });
});
