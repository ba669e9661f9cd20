import { Agent } from "undici";
import { describe, expectTypeOf, it } from "vitest";
import {
  type CooldownOptions,
  MemoryCooldownStore,
  type SharedCooldownOptions,
  throttledFetch,
  throttleInterceptor,
  withUpstreamThrottle,
} from "../../src/index.js";

describe("SharedCooldownOptions", () => {
  it("one object is accepted by every wrapper", () => {
    const cooldown: SharedCooldownOptions = {
      store: new MemoryCooldownStore(),
      partitionSecret: "a secret of at least 16 characters",
      storeTimeoutMs: 100,
    };
    throttledFetch({ limit: "search", cooldown });
    new Agent().compose(throttleInterceptor({ limit: "search", cooldown }));
    withUpstreamThrottle(async (_args: { q: string }) => ({ content: [] }), {
      limit: "search",
      cooldown,
    });
    expectTypeOf<SharedCooldownOptions>().toMatchTypeOf<CooldownOptions<unknown>>();
  });

  it("has no `partition`: its shape differs per wrapper", () => {
    // @ts-expect-error -- a partition belongs to one wrapper's options
    const cooldown: SharedCooldownOptions = { partition: () => "x" };
    void cooldown;
  });
});
