// The key shapes where a key is glued to the word before it (`Xsk_live_…`): a key without a
// digit is no token run, so only its prefix tells it apart, and it must still be marked.

import { describe, expect, it } from "vitest";
import { markKeyShapes } from "../../src/untrusted/key-patterns.js";
import { eventLimitName } from "../../src/untrusted/limit-name.js";

const marks = (text: string) => {
  const found: [number, number][] = [];
  markKeyShapes(text, (from, to) => void found.push([from, to]));
  return found;
};

describe("a key glued to the word before it", () => {
  it.each([
    ["Ask_live_AAAAaaaAAAaaaaaa", 1],
    ["tokenghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", 5],
    ["botxoxb-abcdefghijklmnop", 3],
  ])("is marked from its prefix on: %s", (text, at) => {
    expect(marks(text)).toContainEqual([at, text.length]);
  });

  it("is no limit name an event may carry", () => {
    expect(eventLimitName("Ask_live_AAAAaaaAAAaaaaaa")).toBe("unnamed-limit");
  });

  it("leaves a word that only holds a prefix's letters alone", () => {
    expect(marks("desk lives in ghosts and skylines")).toEqual([]);
  });
});
