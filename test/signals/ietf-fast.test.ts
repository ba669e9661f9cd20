// The simple-form reader of the IETF RateLimit field must agree with the full Structured Fields
// parser on every field it accepts (and decline the rest); that parser answers as the
// structured-headers package does (structured-fields.test.ts).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { policiesOf, simplePolicies } from "../../src/signals/ietf.js";
import { parseList } from "../../src/signals/structured-fields.js";
import { simplePoliciesByRegex } from "./oracles/simple-policies.js";

const full = (field: string) => {
  try {
    return policiesOf(parseList(field));
  } catch {
    return undefined;
  }
};

const name = fc.oneof(
  fc.stringMatching(/^"[ -!#-[\]-~]{0,8}"$/),
  fc.stringMatching(/^[A-Za-z*][A-Za-z0-9:/*._-]{0,8}$/),
  fc.constantFrom('"a\\"b"', '"burst"', "default", '"', "1bad", '"daily"'),
);
const param = fc.oneof(
  fc
    .tuple(fc.constantFrom("r", "t", "q", "w", "x"), fc.integer({ min: -5, max: 1e6 }))
    .map(([key, value]) => `;${key}=${value}`),
  fc.constantFrom(";r", ";t=1.5", ';t="3"', ";R=1", ";r=0000000000000001", ";r=-0"),
);
const item = fc.tuple(name, fc.array(param, { maxLength: 4 })).map(([n, p]) => n + p.join(""));
const separator = fc.constantFrom(", ", ",", " ,", ",\t", " , ", ",,");
const field = fc
  .tuple(fc.array(item, { minLength: 1, maxLength: 5 }), separator, fc.constantFrom("", " ", "  "))
  .map(([items, sep, pad]) => pad + items.join(sep) + pad);

describe("simplePolicies (the RateLimit field's common form)", () => {
  it("equals the full parser wherever it answers", () => {
    fc.assert(
      fc.property(field, (text) => {
        const fast = simplePolicies(text);
        if (fast !== undefined) expect(fast).toStrictEqual(full(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives exactly the answers of the regular expression it replaced, for any text (issue 23)", () => {
    const anything = fc
      .array(
        fc.oneof(
          fc.constantFrom('"', ";", "=", ",", " ", "\t", "-", "r", "t", "0", "9", "a", "*", "\\"),
          fc.string({ maxLength: 3 }),
        ),
        { maxLength: 16 },
      )
      .map((parts) => parts.join(""));
    const many = fc.array(item, { minLength: 15, maxLength: 18 }).map((items) => items.join(", "));
    const long = fc
      .tuple(name, fc.constantFrom("r", "t"), fc.stringMatching(/^-?\d{13,17}$/))
      .map(([n, key, digits]) => `${n};${key}=${digits}`);
    fc.assert(
      fc.property(fc.oneof(field, anything, many, long), (text) => {
        expect(simplePolicies(text)).toStrictEqual(simplePoliciesByRegex(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("answers for the forms servers send", () => {
    for (const text of [
      '"burst";r=0;t=30, "daily";r=900;t=40000',
      "default;r=0;t=12",
      '"api";r=0;t=120',
    ]) {
      expect(simplePolicies(text)).toBeDefined();
      expect(simplePolicies(text)).toStrictEqual(full(text));
    }
  });

  it("declines what it does not read: escapes, inner lists, other parameter types", () => {
    for (const text of ['"a\\"b";r=0', '("a" "b");r=0', '"a";t=1.5', '"a";r', '"a";r=?1']) {
      expect(simplePolicies(text)).toBeUndefined();
    }
  });
});
