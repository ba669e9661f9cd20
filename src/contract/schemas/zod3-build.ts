// The result's schemas in zod 3, built with the zod 3 module given: the "./zod3" entry builds
// them at import with its own `zod/v3`, the "./zod" entry only once it is given a zod 3 shape.

import type * as Z3 from "zod/v3";
import { isValidLimit } from "../result.js";

/** The `rate_limited` error object and `structuredContent` schemas, in the zod 3 `z`. */
export function buildZod3Schemas(z: typeof Z3) {
  /** The `rate_limited` error object, strict: no other fields. */
  const RateLimitedErrorSchema = z
    .object({
      /** Always `"rate_limited"`. */
      type: z.literal("rate_limited"),
      /** Whole seconds to wait; absent when no delay is known. */
      retry_after_seconds: z.number().int().nonnegative().optional(),
      /** The limit that tripped; not blank (the one rule, `isValidLimit`). */
      limit: z.string().min(1).refine(isValidLimit, "`limit` must not be blank"),
      /** Human text. */
      message: z.string(),
      /** RFC 3339 UTC, only when the upstream sent an absolute time. */
      resets_at: z.string().datetime().optional(),
    })
    .strict();
  /** `structuredContent` of a throttled result: the error object under `error`. */
  const RateLimitedStructuredContentSchema = z.object({ error: RateLimitedErrorSchema });
  return { RateLimitedErrorSchema, RateLimitedStructuredContentSchema };
}
