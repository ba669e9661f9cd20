// A store key is reused once made: the cache must hand back exactly the key `cooldownKey` makes
// for the same scope and partition, whatever the two hold (a custom partition may hold `|`).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CooldownLookup, keyOf } from "../../src/cooldown/lookup.js";
import { cooldownKey } from "../../src/cooldown/store.js";

const part = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a|b", "a%7Cb", "%", "|", ""));

describe("keyOf", () => {
  it("gives the key cooldownKey makes, first asked or from the cache", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(part, part), { minLength: 1, maxLength: 30 }), (pairs) => {
        for (const [scope, partition] of [...pairs, ...pairs]) {
          const lookup: CooldownLookup = { scope, limit: scope, partition: () => partition };
          expect(keyOf(lookup)).toBe(cooldownKey(scope, partition));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps scope and partition apart: `a|` + `b` and `a` + `|b` are two keys", () => {
    const key = (scope: string, partition: string) =>
      keyOf({ scope, limit: scope, partition: () => partition });
    expect(key("a|", "b")).not.toBe(key("a", "|b"));
  });
});
