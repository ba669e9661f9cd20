// "mcp-upstream-throttle/zod": everything of the library that needs zod, behind its own entry so
// that the main entry loads no zod at all. The schemas are built with `zod/v4` (which every zod
// in the peer range provides, so they are the project's own classes); `widenOutputShape`
// answers in the zod of the shape it is given (4 classic, 4 mini or 3).

/**
 * The result's zod schemas and `widenOutputShape`: the part of the library that needs zod.
 *
 * @module mcp-upstream-throttle/zod
 */

export {
  RateLimitedErrorSchema,
  RateLimitedStructuredContentSchema,
} from "./contract/schemas/zod4.js";
export type { WidenedShape, WidenedShapeV3, Zod3Shape, Zod4Shape } from "./contract/widen.js";
export { widenOutputShape } from "./contract/widen.js";
