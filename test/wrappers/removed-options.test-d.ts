// Names that never shipped: before the first release, a renamed option was renamed, not aliased.
// Each old name fails to compile where it used to be taken; its new name compiles in its place.

import { describe, it } from "vitest";
import {
  detectThrottle,
  RedisCooldownStore,
  type RedisLikeClient,
  throttledFetch,
  throttleInterceptor,
  toUpstreamRateLimitedError,
  UpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";

const client = {} as RedisLikeClient;
const handler = async () => ({ content: [] });
const response = { status: 429, headers: {} };

describe("removed option names", () => {
  it("relayUpstreamText has no old name `upstreamText` on any door", () => {
    throttledFetch({ relayUpstreamText: "none" });
    // @ts-expect-error -- the old name of relayUpstreamText
    throttledFetch({ upstreamText: "none" });
    // @ts-expect-error -- the old name of relayUpstreamText
    throttleInterceptor({ upstreamText: "none" });
    // @ts-expect-error -- the old name of relayUpstreamText
    withUpstreamThrottle(handler, { upstreamText: "none" });
    // @ts-expect-error -- the old name of relayUpstreamText
    detectThrottle(response, { upstreamText: "none" });
    // @ts-expect-error -- the old name of relayUpstreamText
    toUpstreamRateLimitedError(new Error("x"), { upstreamText: "none" });
    const error = new UpstreamRateLimitedError({ limit: "a", status: 429 });
    error.toToolResult({ relayUpstreamText: "none" });
    // @ts-expect-error -- the old name of relayUpstreamText
    error.toToolResult({ upstreamText: "none" });
  });

  it("inspectSuccessBody has no old name `readSuccessBody`", () => {
    throttledFetch({ inspectSuccessBody: true });
    // @ts-expect-error -- the old name of inspectSuccessBody
    throttledFetch({ readSuccessBody: true });
    // @ts-expect-error -- the old name of inspectSuccessBody
    throttleInterceptor({ readSuccessBody: true });
  });

  it("a store failure is heard through onEvent only: no cooldown.onStoreError", () => {
    throttledFetch({ cooldown: { store: undefined }, onEvent: () => {} });
    // @ts-expect-error -- store failures are `store-error` events
    throttledFetch({ cooldown: { onStoreError: () => {} } });
  });

  it("a RedisCooldownStore has liveView, and no announce, onError or onEvent of its own", () => {
    new RedisCooldownStore({ client, liveView: false });
    // @ts-expect-error -- the old name of liveView
    new RedisCooldownStore({ client, announce: false });
    // @ts-expect-error -- the wrappers' onEvent hears the store's failures
    new RedisCooldownStore({ client, onError: () => {} });
    // @ts-expect-error -- the wrappers' onEvent hears the store's failures
    new RedisCooldownStore({ client, onEvent: () => {} });
  });

  it("an UpstreamRateLimitedError takes its wait as retryAfterMs only", () => {
    new UpstreamRateLimitedError({ limit: "a", status: 429, retryAfterMs: 1500 });
    // @ts-expect-error -- the wait is given in milliseconds
    new UpstreamRateLimitedError({ limit: "a", status: 429, retryAfterSeconds: 2 });
  });
});
