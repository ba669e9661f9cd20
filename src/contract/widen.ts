// widenOutputShape for every zod a project may use: zod 4 classic, zod 4 mini (both from
// `zod/v4`, one core), and zod 3 (`zod/v3`, loaded only once a zod 3 shape is given). The
// widened shape is built with the flavour of the shape passed in, because an MCP SDK refuses an
// object shape that mixes zod 3 and zod 4.

import type * as z3 from "zod/v3";
import * as z from "zod/v4";
import type * as core from "zod/v4/core";
import type { RateLimitedErrorSchema as ErrorSchemaV3 } from "./schemas/zod3.js";
import { buildZod3Schemas } from "./schemas/zod3-build.js";
import { RateLimitedErrorSchema } from "./schemas/zod4.js";
import { loadZod3 } from "./widen-load-zod3.js";

/** An output shape of zod 4 schemas (classic or mini). */
export type Zod4Shape = Record<string, core.$ZodType>;
/** An output shape of zod 3 schemas. */
export type Zod3Shape = Record<string, z3.ZodTypeAny>;

/** A zod 4 shape (classic or mini), widened. */
export type WidenedShape<S extends Zod4Shape> = { [K in keyof S]: z.ZodOptional<S[K]> } & {
  /** The error object of a throttled result, optional. */
  error: z.ZodOptional<typeof RateLimitedErrorSchema>;
};

/** A zod 3 shape, widened. */
export type WidenedShapeV3<S extends Zod3Shape> = { [K in keyof S]: z3.ZodOptional<S[K]> } & {
  /** The error object of a throttled result, optional. */
  error: z3.ZodOptional<typeof ErrorSchemaV3>;
};

/**
 * Widens an output shape so that `{ error: RateLimitedError }` passes it: every field of the
 * original becomes optional and an optional `error` field is added. Takes a raw shape or an
 * object schema of zod 4 (classic or mini) or zod 3, and answers in the same zod. Register the
 * tool with the widened shape and pass it to `withUpstreamThrottle`'s `outputSchema` option;
 * a throttled result then keeps its error in `structuredContent`.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { withUpstreamThrottle } from "mcp-upstream-throttle";
 * import { widenOutputShape } from "mcp-upstream-throttle/zod";
 * import { z } from "zod";
 *
 * const outputSchema = widenOutputShape({ stars: z.number() });
 * const server = new McpServer({ name: "stars", version: "1.0.0" });
 * server.registerTool(
 *   "count_stars",
 *   { inputSchema: { repo: z.string() }, outputSchema },
 *   withUpstreamThrottle(
 *     async ({ repo }) => ({
 *       content: [{ type: "text", text: `${repo}: 42` }],
 *       structuredContent: { stars: 42 },
 *     }),
 *     { outputSchema },
 *   ),
 * );
 * ```
 */
export function widenOutputShape<S extends Zod4Shape>(
  shape: S | core.$ZodObject<S>,
): WidenedShape<S>;
export function widenOutputShape<S extends Zod3Shape>(
  shape: S | z3.ZodObject<S>,
): WidenedShapeV3<S>;
export function widenOutputShape(shape: unknown): Record<string, unknown> {
  const fields = fieldsOf(shape);
  const schemas = Object.entries(fields);
  const zod4 = schemas.filter(([, schema]) => isZod4(schema)).length;
  if (zod4 !== 0 && zod4 !== schemas.length) {
    throw new TypeError("`shape` mixes zod 3 and zod 4 schemas; use one zod for the whole shape");
  }
  const useZod4 = schemas.length === 0 ? !isZod3(shape) : zod4 !== 0;
  const widened: Record<string, unknown> = {};
  for (const [key, schema] of schemas) {
    if (key === "error") {
      throw new TypeError("`shape` already has an `error` field; it cannot be widened");
    }
    if (useZod4) widened[key] = z.optional(schema as core.SomeType);
    else if (typeof (schema as z3.ZodTypeAny)?.optional === "function")
      widened[key] = (schema as z3.ZodTypeAny).optional();
    else throw new TypeError(`\`shape.${key}\` is not a zod schema`);
  }
  widened.error = useZod4 ? RateLimitedErrorSchema.optional() : errorSchemaV3().optional();
  return widened;
}

let zod3ErrorSchema: typeof ErrorSchemaV3 | undefined;

/** The error object's schema in the project's zod 3, built on the first zod 3 shape. */
function errorSchemaV3(): typeof ErrorSchemaV3 {
  zod3ErrorSchema ??= buildZod3Schemas(loadZod3()).RateLimitedErrorSchema;
  return zod3ErrorSchema;
}

/** The fields of a raw shape, or of a zod object schema (4 keeps them on `_zod.def.shape`). */
function fieldsOf(shape: unknown): Record<string, unknown> {
  if (typeof shape !== "object" || shape === null) {
    throw new TypeError("`shape` must be a zod object schema or an object of zod schemas");
  }
  const v4 = (shape as { _zod?: { def?: { type?: unknown; shape?: unknown } } })._zod?.def;
  if (v4 !== undefined) {
    if (v4.type !== "object") throw new TypeError("`shape` must be a zod object schema");
    return v4.shape as Record<string, unknown>;
  }
  if (isZod3(shape)) {
    if ((shape as { _def: { typeName?: unknown } })._def.typeName !== "ZodObject") {
      throw new TypeError("`shape` must be a zod object schema");
    }
    return (shape as z3.AnyZodObject).shape;
  }
  for (const [key, schema] of Object.entries(shape)) {
    if (!isZod4(schema) && !isZod3(schema)) {
      throw new TypeError(`\`shape.${key}\` is not a zod schema`);
    }
  }
  return shape as Record<string, unknown>;
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
