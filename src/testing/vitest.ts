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

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: must match vitest's own declaration
  interface Matchers<T = any> {
    /** The tool result is a design §2 `rate_limited` result matching `expected`. */
    toBeRateLimited(expected?: RateLimitedExpectation): T;
  }
}

export { toBeRateLimited };
