// Attack: values built to throw — proxies, revoked proxies, throwing getters — reach the
// detector as a response or as an error a vendor SDK threw. Nothing may throw out of the
// detector, and withUpstreamThrottle must rethrow the tool's own error, never a new one.

import { describe, expect, it } from "vitest";
import {
  detectThrottle,
  isUpstreamRateLimitedError,
  parseRateLimitedResult,
  toUpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../src/index.js";

const trap = () => {
  throw new Error("trap");
};
const throwingProxy = () =>
  new Proxy(
    {},
    { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap },
  );
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const throwingGetter = (key: string, rest: Record<string, unknown> = {}) =>
  Object.defineProperty({ ...rest }, key, { get: trap, enumerable: true });

const hostile: [string, () => unknown][] = [
  ["a proxy whose every trap throws", throwingProxy],
  ["a revoked proxy", revoked],
  ["a throwing getter on status", () => throwingGetter("status")],
  ["a throwing getter on headers", () => throwingGetter("headers", { status: 429 })],
  ["a throwing getter on body", () => throwingGetter("body", { status: 429, headers: {} })],
  ["headers that are a throwing proxy", () => ({ status: 429, headers: throwingProxy() })],
  ["headers that are a revoked proxy", () => ({ status: 429, headers: revoked() })],
  ["a body that is a throwing proxy", () => ({ status: 403, headers: {}, body: throwingProxy() })],
  ["a response whose response throws", () => throwingGetter("response", { message: "x" })],
  ["an error whose cause throws", () => throwingGetter("cause", { status: 429 })],
  [
    "a config with a throwing headers getter",
    () => ({ status: 429, headers: {}, config: throwingGetter("headers") }),
  ],
];

describe("hostile values never throw", () => {
  it.each(hostile)("detectThrottle: %s", (_name, make) => {
    expect(() => detectThrottle(make() as never)).not.toThrow();
  });

  it.each(hostile)("toUpstreamRateLimitedError: %s", (_name, make) => {
    expect(() => toUpstreamRateLimitedError(make())).not.toThrow();
  });

  it.each(hostile)("isUpstreamRateLimitedError: %s", (_name, make) => {
    expect(isUpstreamRateLimitedError(make())).toBe(false);
  });

  it.each(hostile)(
    "withUpstreamThrottle rethrows the tool's own error, or answers a 429 it can read, never another error: %s",
    async (_name, make) => {
      const own = make();
      const tool = withUpstreamThrottle(async () => {
        throw own;
      });
      const outcome = await tool().then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      if ("error" in outcome) expect(outcome.error).toBe(own);
      else expect(parseRateLimitedResult(outcome.result)?.type).toBe("rate_limited");
    },
  );

  it("a headers object whose get throws still lets the rest be read", () => {
    const headers = { get: trap, has: trap };
    expect(detectThrottle({ status: 429, headers: headers as never })).toMatchObject({
      status: 429,
      delaySource: "none",
    });
  });
});

describe("absurd values are clamped, not dropped", () => {
  it("a Retry-After of 400 digits is the longest delay", () => {
    const signal = detectThrottle({ status: 429, headers: { "retry-after": "9".repeat(400) } });
    expect(signal).toMatchObject({ retryAfterSeconds: 86_400, delaySource: "retry-after" });
  });

  it("an X-RateLimit-Reset of 400 digits is the longest delay", () => {
    const signal = detectThrottle({
      status: 429,
      headers: { "x-ratelimit-reset": "9".repeat(400) },
    });
    expect(signal).toMatchObject({ retryAfterSeconds: 86_400 });
    expect(signal?.resetsAt).toBeUndefined();
  });
});
