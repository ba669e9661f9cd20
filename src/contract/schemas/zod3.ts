// The same schemas for projects on zod 3 (`import { z } from "zod"` with zod 3.25): a zod 3
// object cannot hold a zod 4 schema. Exported from "mcp-upstream-throttle/zod3".

import * as z from "zod/v3";
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
    resets_at: z.string().datetime().optional(),
  })
  .strict();

/** `structuredContent` of a throttled result: the error object under `error`. */
export const RateLimitedStructuredContentSchema = z.object({ error: RateLimitedErrorSchema });
