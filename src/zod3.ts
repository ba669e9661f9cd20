// "mcp-upstream-throttle/zod3": the result's schemas for projects whose `zod` is zod 3, and
// `widenOutputShape` (which answers a zod 3 shape in zod 3).

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
export { widenOutputShape } from "./contract/widen.js";
