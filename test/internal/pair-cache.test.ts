import { describe, expect, it } from "vitest";
import { PairCache } from "../../src/internal/pair-cache.js";

describe("PairCache", () => {
  it("finds a value by its two keys, kept apart", () => {
    const cache = new PairCache<string>(8);
    cache.set("header:authorization=", "Bearer a", "p1");
    cache.set("header:authorization=Bearer ", "a", "p2");
    expect(cache.get("header:authorization=", "Bearer a")).toBe("p1");
    expect(cache.get("header:authorization=Bearer ", "a")).toBe("p2");
    expect(cache.get("header:authorization=", "Bearer b")).toBeUndefined();
  });

  it("keeps at most its size over two generations, the oldest dropped whole", () => {
    const cache = new PairCache<number>(4);
    for (let i = 0; i < 5; i += 1) cache.set("s", String(i), i);
    // Generations of two: 0 and 1 went when 4 arrived; 2, 3 (old) and 4 (young) remain.
    expect([0, 1, 2, 3, 4].map((i) => cache.get("s", String(i)))).toStrictEqual([
      undefined,
      undefined,
      2,
      3,
      4,
    ]);
  });

  it("counts a value set again under the same keys once", () => {
    const cache = new PairCache<number>(4);
    for (let i = 0; i < 10; i += 1) cache.set("s", "same", i);
    for (const other of ["a", "b", "c"]) cache.set("s", other, 0);
    // Counted once, "same" filled half a generation: it is in the old one beside "a", not gone.
    expect(cache.get("s", "same")).toBe(9);
    expect(["a", "b", "c"].map((other) => cache.get("s", other))).toStrictEqual([0, 0, 0]);
  });
});
