// SecretMatcher keeps its last redactions: a text asked again, in any order, between others,
// gets exactly what a matcher that never saw it gives.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SecretMatcher } from "../../src/untrusted/secrets.js";

const KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
const texts = fc.oneof(
  fc.constantFrom(
    `invalid key ${KEY}`,
    "Rate limit reached. Please try again in 120ms.",
    `key ${KEY.slice(3, 15)} is throttled`,
    "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
    "",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 2040, maxLength: 2060 }),
);

describe("SecretMatcher.redact", () => {
  it("answers a text asked again as a matcher that never saw it answers it", () => {
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 90 }), (batch) => {
        const kept = new SecretMatcher([KEY]);
        for (const text of [...batch, ...batch.reverse()]) {
          expect(kept.redact(text)).toBe(new SecretMatcher([KEY]).redact(text));
          expect(SecretMatcher.EMPTY.redact(text)).toBe(new SecretMatcher([]).redact(text));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("still cuts a credential from a text it redacted before", () => {
    const matcher = new SecretMatcher([KEY]);
    const text = `invalid key ${KEY}`;
    expect(matcher.redact(text)).toBe("invalid key [redacted]");
    expect(matcher.redact(text)).toBe("invalid key [redacted]");
  });
});
