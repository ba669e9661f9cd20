// widenOutputShape answers each zod in its own zod: zod 4 classic, zod/mini and zod 3 (the
// shapes users register with the 1.x SDK, which refuses a shape that mixes zod 3 and zod 4).

import { describe, expect, it } from "vitest";
import * as z3 from "zod/v3";
import * as z4 from "zod/v4";
import * as zm from "zod/v4/mini";
import { rateLimitedResult } from "../../src/index.js";
import { widenOutputShape } from "../../src/zod.js";

const error = rateLimitedResult({ limit: "search", retryAfterSeconds: 5 }).structuredContent?.error;

describe("widenOutputShape", () => {
  it("answers a zod 3 shape, or object, in zod 3", () => {
    for (const shape of [
      { hits: z3.array(z3.string()) },
      z3.object({ hits: z3.array(z3.string()) }),
    ]) {
      const widened = widenOutputShape(shape);
      expect("_zod" in widened.hits).toBe(false);
      expect("_zod" in widened.error).toBe(false);
      const object = z3.object(widened);
      expect(object.safeParse({ error }).success).toBe(true);
      expect(object.safeParse({ hits: ["a"] }).success).toBe(true);
      expect(object.safeParse({ error: { ...error, type: "other" } }).success).toBe(false);
    }
  });

  it("answers a zod/mini shape with zod 4 schemas the mini object takes", () => {
    const widened = widenOutputShape({ hits: zm.array(zm.string()) });
    expect("_zod" in widened.hits && "_zod" in widened.error).toBe(true);
    const object = zm.object(widened);
    expect(object.safeParse({ error }).success).toBe(true);
    expect(object.safeParse({ error: { ...error, retry_after_seconds: 1.5 } }).success).toBe(false);
    expect(z4.toJSONSchema(object)).toMatchObject({
      properties: {
        error: { properties: { retry_after_seconds: { type: "integer", minimum: 0 } } },
      },
    });
  });

  it("refuses a shape that mixes zod 3 and zod 4, one with an `error` field, and one that is no zod", () => {
    expect(() => widenOutputShape({ a: z3.string(), b: z4.string() } as never)).toThrow(
      /mixes zod 3 and zod 4/,
    );
    expect(() => widenOutputShape({ error: z4.string() })).toThrow(/already has an `error` field/);
    expect(() => widenOutputShape({ hits: "string" } as never)).toThrow(
      /`shape.hits` is not a zod schema/,
    );
    expect(() => widenOutputShape(z4.string() as never)).toThrow(/must be a zod object schema/);
  });
});
