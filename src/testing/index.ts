// "mcp-upstream-throttle/testing": for tool authors' tests, in any runtime and any test
// framework. Nothing here is loaded from vitest or nock (a nock scope is passed in). The vitest
// registration lives in "./testing/vitest", the fake upstream (a Node HTTP server) in
// "./testing/node".

/**
 * Matchers for tool authors' tests, in any runtime and framework.
 *
 * @module mcp-upstream-throttle/testing
 */

export type { AsymmetricMatcherLike, RateLimitedExpectation } from "./expectation.js";
export { secondsBetween } from "./expectation.js";
export type { MatcherContext } from "./matchers.js";
export { expectRateLimited, RateLimitAssertionError, toBeRateLimited } from "./matchers.js";
export type { NockRateLimitedOptions, NockScopeLike } from "./nock.js";
export { nockRateLimited } from "./nock.js";
