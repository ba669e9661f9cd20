// "mcp-upstream-throttle/testing": for tool authors' tests. vitest and nock are optional peers
// of this entry only, and neither is loaded at run time (types only; scopes are passed in).

export type { RateLimitedExpectation } from "./expectation.js";
export type {
  FakeLimit,
  FakeUpstream,
  FakeUpstreamOptions,
  ThrottleStyle,
} from "./fake-upstream.js";
export { startFakeUpstream } from "./fake-upstream.js";
export { expectRateLimited, toBeRateLimited } from "./matchers.js";
export type { NockRateLimitedOptions, NockScopeLike } from "./nock.js";
export { nockRateLimited } from "./nock.js";
