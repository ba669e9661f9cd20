// widenOutputShape for the "mcp-upstream-throttle/zod3" entry: zod 3 shapes only, so that the
// zod 3 entry loads zod 3 alone (the "./zod" entry's widenOutputShape takes every zod).

import type * as z3 from "zod/v3";
import { RateLimitedErrorSchema } from "./schemas/zod3.js";
import type { WidenedShapeV3, Zod3Shape } from "./widen.js";

/**
 * Widens a zod 3 output shape so that `{ error: RateLimitedError }` passes it: every field of
 * the original becomes optional and an optional `error` field is added, all in zod 3. Takes a
 * raw shape or a zod 3 object schema; a zod 4 one throws a `TypeError` (widen it with the
 * `mcp-upstream-throttle/zod` entry).
 *
 * @example
 * ```ts
 * import { widenOutputShape } from "mcp-upstream-throttle/zod3";
 * import { z } from "zod/v3";
 *
 * const outputSchema = widenOutputShape({ stars: z.number() });
 * ```
 */
export function widenOutputShape<S extends Zod3Shape>(
  shape: S | z3.ZodObject<S>,
): WidenedShapeV3<S> {
  const widened: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(fieldsOf(shape))) {
    if (key === "error") {
      throw new TypeError("`shape` already has an `error` field; it cannot be widened");
    }
    if (isZod4(schema)) throw new TypeError(ZOD4);
    if (!isZod3(schema)) throw new TypeError(`\`shape.${key}\` is not a zod 3 schema`);
    widened[key] = (schema as z3.ZodTypeAny).optional();
  }
  widened.error = RateLimitedErrorSchema.optional();
  return widened as WidenedShapeV3<S>;
}

const ZOD4 =
  "`shape` holds zod 4 schemas: widen it with `widenOutputShape` of `mcp-upstream-throttle/zod`";

/** The fields of a raw shape, or of a zod 3 object schema. */
function fieldsOf(shape: unknown): Record<string, unknown> {
  if (typeof shape !== "object" || shape === null) {
    throw new TypeError("`shape` must be a zod object schema or an object of zod schemas");
  }
  if (isZod4(shape)) throw new TypeError(ZOD4);
  if (!isZod3(shape)) return shape as Record<string, unknown>;
  if ((shape as { _def: { typeName?: unknown } })._def.typeName !== "ZodObject") {
    throw new TypeError("`shape` must be a zod object schema");
  }
  return (shape as z3.AnyZodObject).shape;
}

function isZod4(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function isZod3(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !("_zod" in value) &&
    typeof (value as { _def?: unknown })._def === "object" &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}
