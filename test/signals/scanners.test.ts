// The char scanners that replaced regular expressions on the detection path (issue 23) give
// exactly the answers of the expressions they replaced, kept as oracles in ./oracles/.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDecimal } from "../../src/signals/decimal.js";
import { parseGoDuration } from "../../src/signals/vendor-resets.js";
import { DECIMAL_BY_REGEX, parseGoDurationByRegex } from "./oracles/go-duration.js";

/** Texts made of the pieces these grammars are made of, and of anything at all. */
const textOf = (pieces: readonly string[]) =>
  fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 10 })
    .map((parts) => parts.join(""));

const decimalText = fc.oneof(
  textOf(["0", "1", "9", "00", "123", ".", "..", " ", "-", "+", "e", "1e3", "٣", "０", "\t"]),
  fc.stringMatching(/^\d{0,20}(?:\.\d{0,20})?$/),
);

const goDurationText = fc.oneof(
  textOf([
    "0",
    "6",
    "12",
    "1.5",
    ".5",
    "5.",
    "123456789012345678",
    "9".repeat(400),
    "ns",
    "us",
    "µs",
    "μs",
    "ms",
    "s",
    "m",
    "h",
    "n",
    "u",
    "µ",
    " ",
    "\u00a0",
    "-",
    "d",
  ]),
  fc
    .array(
      fc.tuple(
        fc.stringMatching(/^\d{1,18}(?:\.\d{1,8})?$/),
        fc.constantFrom("ns", "us", "µs", "μs", "ms", "s", "m", "h"),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((parts) => parts.map(([amount, unit]) => amount + unit).join("")),
);

describe("isDecimal (plain decimal numbers in rate-limit fields)", () => {
  it("says what /^\\d+(?:\\.\\d+)?$/ says, for any text", () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(isDecimal(text)).toBe(DECIMAL_BY_REGEX.test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("accepts integers and decimals, and nothing signed, spaced, exponent or half-written", () => {
    for (const text of ["0", "120", "0.0", "1.5", "007"]) expect(isDecimal(text)).toBe(true);
    for (const text of ["", ".", "1.", ".5", "-1", "+1", "1e3", " 1", "1 ", "1.2.3", "０"])
      expect(isDecimal(text)).toBe(false);
  });
});

describe("parseGoDuration (OpenAI's resets)", () => {
  it("gives exactly the milliseconds the regular expressions gave, for any text", () => {
    fc.assert(
      fc.property(goDurationText, (text) => {
        expect(parseGoDuration(text)).toBe(parseGoDurationByRegex(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads the forms OpenAI sends", () => {
    expect(parseGoDuration("6m0s")).toBe(360_000);
    expect(parseGoDuration("12ms")).toBe(12);
    expect(parseGoDuration("1.5s")).toBe(1500);
    expect(parseGoDuration("1h2m3s")).toBe(3_723_000);
    expect(parseGoDuration(" 20ns ")).toBe(1);
    for (const text of ["", "5", "m", "1.s", "5d", "1 s", "-1s"])
      expect(parseGoDuration(text)).toBeUndefined();
  });
});
