// The result's schemas for zod 4, classic and mini alike. Imported from `zod/v4`, which every
// zod in the peer range `^3.25 || ^4` provides, so they are built by the project's own copy
// of zod: `registerTool` and `toJSONSchema` see their own classes and keep every constraint.

import * as z from "zod/v4";
import { isValidLimit } from "../result.js";

/** The `rate_limited` error object, strict: no other fields. */
export const RateLimitedErrorSchema = z
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
    resets_at: z.iso.datetime().optional(),
  })
  .strict();

/** `structuredContent` of a throttled result: the error object under `error`. */
export const RateLimitedStructuredContentSchema = z.object({ error: RateLimitedErrorSchema });
