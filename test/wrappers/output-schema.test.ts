import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rateLimitedResult } from "../../src/index.js";
import { outputSchemaAdmits } from "../../src/wrappers/output-schema.js";
import { RateLimitedErrorSchema, widenOutputShape } from "../../src/zod.js";

const error = {
  type: "rate_limited" as const,
  retry_after_seconds: 3,
  limit: "search",
  message: "slow down",
};

describe("widenOutputShape", () => {
  const shape = { items: z.array(z.string()), total: z.number() };

  it("admits { error } and still admits the original output", () => {
    const widened = z.object(widenOutputShape(shape));
    expect(widened.parse({ error })).toStrictEqual({ error });
    expect(widened.parse({ items: ["a"], total: 1 })).toStrictEqual({ items: ["a"], total: 1 });
    expect(widened.safeParse({ items: [1] }).success).toBe(false);
  });

  it("widens a z.object as well as a raw shape", () => {
    const widened = z.object(widenOutputShape(z.object(shape)));
    expect(widened.safeParse({ error }).success).toBe(true);
  });

  it("refuses a shape that already has an error field", () => {
    expect(() => widenOutputShape({ error: z.string() })).toThrow(/`error`/);
  });

  it("admits the error objects rateLimitedResult builds", () => {
    const widened = z.object(widenOutputShape(shape));
    const result = rateLimitedResult({ limit: "a", retryAfterSeconds: 1, resetsAt: new Date() });
    expect(widened.safeParse(result.structuredContent).success).toBe(true);
  });
});

describe("outputSchemaAdmits", () => {
  const shape = { items: z.array(z.string()) };

  it.each([
    ["no schema", undefined, true],
    ["a widened raw shape", widenOutputShape(shape), true],
    ["a widened z.object", z.object(widenOutputShape(shape)), true],
    [
      "a loose object (passthrough)",
      z.looseObject({ items: z.array(z.string()).optional() }),
      true,
    ],
    [
      "an object whose fields are all optional: zod strips error",
      z.object({ items: z.array(z.string()).optional() }),
      false,
    ],
    ["a raw shape with a required field", shape, false],
    ["a strict object", z.strictObject({ items: z.array(z.string()).optional() }), false],
    ["an error field of another shape", { error: z.string() }, false],
    [
      "a Standard Schema that accepts anything",
      { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }) } },
      true,
    ],
    [
      "a Standard Schema that rejects",
      {
        "~standard": {
          version: 1,
          vendor: "x",
          validate: async () => ({ issues: [{ message: "no" }] }),
        },
      },
      false,
    ],
    ["a plain JSON Schema (cannot be checked here)", { type: "object", properties: {} }, false],
    ["an error schema in a shape", { error: RateLimitedErrorSchema }, true],
  ])("%s: %s", async (_name, schema, expected) => {
    expect(await outputSchemaAdmits(schema, error)).toBe(expected);
  });
});
