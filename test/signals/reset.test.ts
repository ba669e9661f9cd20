import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseResetValue } from "../../src/signals/reset.js";

describe("parseResetValue: units told apart by magnitude", () => {
  it.each([
    ["1795953600", { epochMs: 1_795_953_600_000 }, "epoch seconds (GitHub, X)"],
    ["1795953600.123", { epochMs: 1_795_953_600_123 }, "epoch seconds with milliseconds (Discord)"],
    ["1795953600000", { epochMs: 1_795_953_600_000 }, "epoch milliseconds"],
    ["60", { deltaMs: 60_000 }, "delta seconds (older IETF drafts)"],
    ["0.5", { deltaMs: 500 }, "fractional delta seconds"],
    [
      "999999999",
      { deltaMs: 999_999_999_000 },
      "just below the epoch floor: a (huge) delta, clamped later",
    ],
  ])("reads %j as %o (%s)", (text, expected, _unit) => {
    expect(parseResetValue(text)).toStrictEqual(expected);
  });

  it.each(["", "-5", "1e3", "soon", "2026-11-29T12:00:00Z"])("ignores %j", (text) => {
    expect(parseResetValue(text)).toBeUndefined();
  });
});

describe("parseResetValue's whole-number scan", () => {
  // The reading before the scan: `\d+(?:\.\d+)?`, then `Number`, clamped, then by magnitude.
  const before = (text: string) => {
    const trimmed = text.trim();
    if (!/^\d+(?:\.\d+)?$/.test(trimmed)) return undefined;
    const value = Math.min(Number(trimmed), Number.MAX_SAFE_INTEGER);
    if (value >= 1e12) return { epochMs: value };
    if (value >= 1e9) return { epochMs: value * 1000 };
    return { deltaMs: Math.ceil(value * 1000) };
  };

  it("reads every text as the decimal reading did (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.stringMatching(/^\s?\d{1,20}(?:\.\d{1,4})?\s?$/),
          fc.nat().map(String),
          fc.string({ maxLength: 16 }),
        ),
        (text) => {
          expect(parseResetValue(text)).toStrictEqual(before(text));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
