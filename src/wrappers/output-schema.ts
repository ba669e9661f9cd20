import type { RateLimitedError } from "../contract/result.js";

/**
 * Whether `structuredContent: { error }` would pass the tool's output schema unchanged.
 * Accepts what the SDKs accept: a zod raw shape, a zod object (3 or 4), or a Standard Schema.
 * Anything it cannot check (a plain JSON Schema) counts as "no": the error then goes in `_meta`.
 */
export async function outputSchemaAdmits(
  schema: unknown,
  error: RateLimitedError,
): Promise<boolean> {
  if (schema === undefined || schema === null) return true;
  const candidate = { error };
  if (hasSafeParse(schema)) return keepsError(schema.safeParse(candidate), error);
  if (isStandardSchema(schema)) {
    const outcome = await schema["~standard"].validate(candidate);
    return (
      outcome.issues === undefined && keepsError({ success: true, data: outcome.value }, error)
    );
  }
  if (isRawShape(schema)) {
    if (!("error" in schema)) return false; // a plain object strips unknown keys
    return Object.entries(schema).every(([key, field]) =>
      key === "error"
        ? keepsError(field.safeParse(error), error, true)
        : field.safeParse(undefined).success,
    );
  }
  return false;
}

interface SafeParser {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

interface StandardSchema {
  "~standard": {
    validate(
      value: unknown,
    ): { value?: unknown; issues?: unknown } | Promise<{ value?: unknown; issues?: unknown }>;
  };
}

function keepsError(
  parsed: { success: boolean; data?: unknown },
  error: RateLimitedError,
  bare = false,
): boolean {
  if (!parsed.success) return false;
  const out = bare ? parsed.data : (parsed.data as { error?: unknown } | undefined)?.error;
  if (typeof out !== "object" || out === null) return false;
  const kept = out as Record<string, unknown>;
  const keys = Object.keys(error) as (keyof RateLimitedError)[];
  return Object.keys(kept).length === keys.length && keys.every((key) => kept[key] === error[key]);
}

function hasSafeParse(value: unknown): value is SafeParser {
  return typeof (value as SafeParser | null)?.safeParse === "function";
}

function isStandardSchema(value: unknown): value is StandardSchema {
  return typeof (value as StandardSchema | null)?.["~standard"]?.validate === "function";
}

function isRawShape(value: unknown): value is Record<string, SafeParser> {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.values(value).length > 0 &&
    Object.values(value).every(hasSafeParse)
  );
}
