// The same schemas for projects on zod 3 (`import { z } from "zod"` with zod 3.25): a zod 3
// object cannot hold a zod 4 schema. Exported from "mcp-upstream-throttle/zod3".

import * as z from "zod/v3";
import { buildZod3Schemas } from "./zod3-build.js";

const schemas = buildZod3Schemas(z);

/** The `rate_limited` error object, strict: no other fields. */
export const RateLimitedErrorSchema = schemas.RateLimitedErrorSchema;

/** `structuredContent` of a throttled result: the error object under `error`. */
export const RateLimitedStructuredContentSchema = schemas.RateLimitedStructuredContentSchema;
