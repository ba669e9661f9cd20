// The rolling-hash scan of SecretMatcher finds exactly the positions the plain scan (a substring
// and a set lookup at every position) found.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addPieces, eachPiece, PIECE, SecretMatcher } from "../../src/untrusted/secrets.js";

function plainScan(text: string, pieces: ReadonlySet<string>): number[] {
  const out: number[] = [];
  for (let i = 0; i + PIECE <= text.length; i += 1)
    if (pieces.has(text.slice(i, i + PIECE))) out.push(i);
  return out;
}

function rollingScan(text: string, secrets: readonly string[]): number[] {
  const pieces = new Set<string>();
  const hashes = new Set<number>();
  for (const secret of secrets) addPieces(pieces, hashes, secret);
  const out: number[] = [];
  eachPiece(text, hashes, pieces, (at) => out.push(at));
  expect(out).toEqual(plainScan(text, pieces));
  return out;
}

const chars = fc.constantFrom(
  "a",
  "b",
  "A",
  "0",
  "_",
  "-",
  " ",
  "é",
  "\u{1F600}",
  "\uD800",
  "\u0000",
);
const word = fc.array(chars, { maxLength: 40 }).map((parts) => parts.join(""));

describe("the rolling-hash piece scan", () => {
  it("finds every piece at every position, at the ends too", () => {
    expect(rollingScan("xxabcdefxx", ["abcdef"])).toEqual([2]);
    expect(rollingScan("abcdef", ["abcdef"])).toEqual([0]);
    expect(rollingScan("abcdefg", ["bcdefg"])).toEqual([1]);
    expect(rollingScan("abcde", ["abcdef"])).toEqual([]);
    expect(rollingScan("aaaaaaaa", ["aaaaaa"])).toEqual([0, 1, 2]);
  });

  it("finds what the plain scan finds (property)", () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 3 }), (text, secrets) => {
        rollingScan(text, secrets);
        // Secrets cut from the text itself, so there are hits.
        rollingScan(text, [text.slice(1, 9), text.slice(3)]);
      }),
      { numRuns: 5_000 },
    );
  });

  it("redacts through it as before: a piece inside a long text", () => {
    const key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    const matcher = new SecretMatcher([key]);
    expect(matcher.redact(`echo ${key.slice(4, 16)} and more`)).toBe("echo [redacted] and more");
  });
});
