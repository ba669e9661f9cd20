// "mcp-upstream-throttle/zod3": the result's schemas for projects whose `zod` is zod 3, and
// `widenOutputShape` for zod 3 shapes; the entry loads zod 3 alone.

/**
 * The result's schemas for projects on zod 3, and `widenOutputShape`.
 *
 * @module mcp-upstream-throttle/zod3
 */

export {
  RateLimitedErrorSchema,
  RateLimitedStructuredContentSchema,
} from "./contract/schemas/zod3.js";
export type { WidenedShapeV3, Zod3Shape } from "./contract/widen.js";
export { widenOutputShape } from "./contract/widen3.js";
