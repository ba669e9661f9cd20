// SecretMatcher keeps its last answers of `touches` (a host, an upstream's limit name are asked
// on every throttle). A kept answer is the one a fresh matcher of the same credentials gives,
// however texts and matchers interleave, and one matcher's answers never serve another's.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SecretMatcher } from "../../src/untrusted/secrets.js";

const chars = fc.constantFrom("a", "b", "A", "0", "9", "_", "-", ".", " ", "é", "\u0000");
const word = fc.array(chars, { minLength: 0, maxLength: 24 }).map((parts) => parts.join(""));
const secret = fc.array(chars, { minLength: 6, maxLength: 24 }).map((parts) => parts.join(""));

describe("the answers SecretMatcher keeps for touches", () => {
  it("are a fresh matcher's answers, per matcher, in any order (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(secret, { maxLength: 2 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), word), { maxLength: 200 }),
        (secretsPerCaller, asks) => {
          const matchers = secretsPerCaller.map((secrets) => new SecretMatcher(secrets));
          for (const [which, asked] of asks) {
            const index = which % matchers.length;
            // Texts made of the callers' own secrets too, so that some are touched.
            const text = which % 2 === 0 ? asked : `${asked}${secretsPerCaller[index]?.[0] ?? ""}`;
            const fresh = new SecretMatcher(secretsPerCaller[index] ?? []).touches(text);
            expect(matchers[index]?.touches(text)).toBe(fresh);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("answers for a text it kept, and again once more texts than it keeps were asked", () => {
    const matcher = new SecretMatcher(["sk_live_0123456789abcdef"]);
    expect(matcher.touches("api.sk_live_0123456789abcdef.example.com")).toBe(true);
    expect(matcher.touches("api.example.com")).toBe(false);
    for (let i = 0; i < 200; i += 1) matcher.touches(`host-${i}.example.com`);
    expect(matcher.touches("api.sk_live_0123456789abcdef.example.com")).toBe(true);
    expect(matcher.touches("api.example.com")).toBe(false);
    // Another caller's matcher keeps its own answers: the first one's key is nothing to it.
    expect(matcher.touches("zz-0123456789")).toBe(true);
    expect(new SecretMatcher(["another-key-987654"]).touches("zz-0123456789")).toBe(false);
  });
});
