// "mcp-upstream-throttle/zod3": the result's schemas for projects whose `zod` is zod 3.
// (`widenOutputShape` in the main entry already answers a zod 3 shape in zod 3.)

/**
 * The result's schemas for projects on zod 3.
 *
 * @module mcp-upstream-throttle/zod3
 */

export {
  RateLimitedErrorSchema,
  RateLimitedStructuredContentSchema,
} from "./schemas/zod3.js";
