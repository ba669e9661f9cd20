// "mcp-upstream-throttle/testing/vitest": `import "mcp-upstream-throttle/testing/vitest"` in a
// vitest setup file (or a test) registers `toBeRateLimited` and types it on `expect(...)`. Only
// vitest users load this file, so the augmentation never reaches a jest project's types.

/**
 * Registers `toBeRateLimited` with vitest and types it.
 *
 * @module mcp-upstream-throttle/testing/vitest
 */

import { expect } from "vitest";
import type { RateLimitedExpectation } from "./expectation.js";
import { toBeRateLimited } from "./matchers.js";

expect.extend({ toBeRateLimited });

// No type parameters on purpose: vitest 3 and 4 declare `Matchers<T = any>`, vitest 5
// `Matchers<R = …, T = unknown>`, and TypeScript accepts an augmentation that lists none when
// every parameter has a default, so this one declaration merges with all three.
declare module "vitest" {
  interface Matchers {
    /** Passes when the tool result is a `rate_limited` result matching `expected`. */
    toBeRateLimited(expected?: RateLimitedExpectation): void;
  }
}

export type { RateLimitedExpectation };
export { toBeRateLimited };
