// The fast read of an entry found in Redis against the long way it replaces (JSON.parse, then
// the one door, entryShape), kept here as the oracle: equal on every input, hostile ones first.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entryOfText, parse, parseWritten } from "../../src/cooldown/redis-entry.js";
import { entryShape } from "../../src/untrusted/store-entry.js";

const oracle = (text: string) => entryShape(parse(text));

const written = (until: unknown, limit: unknown, limitSource: unknown, status: unknown) =>
  `{"until":${until},"limit":${JSON.stringify(limit)},"limitSource":${JSON.stringify(limitSource)},"status":${status}}`;

describe("an entry's text read the fast way equals JSON.parse + entryShape", () => {
  it.each([
    ["as written", written("1764590000123.457", "search", "option", 429)],
    ["with resetsAt", written(1, "search", "upstream", 503).replace(/\}$/, ',"resetsAt":2000}')],
    ["an until that is no finite number", written("1e999", "search", "option", 429)],
    ["an until of -0", written("-0", "search", "option", 429)],
    ["a status out of range", written(1, "search", "option", 700)],
    ["a status that is no integer", written(1, "search", "option", 429.5)],
    ["a status written as 4.29e2", written(1, "search", "option", "4.29e2")],
    ["an unknown limitSource", written(1, "search", "tool", 429)],
    ["a limit with escapes", written(1, 'se"ar\\ch\n', "option", 429)],
    ["a lone surrogate in the limit", written(1, "\ud800x", "option", 429)],
    [
      "a raw control character",
      `{"until":1,"limit":"a\u0001","limitSource":"option","status":429}`,
    ],
    ["a number JSON forbids (leading zero)", written("01", "search", "option", 429)],
    ["a number JSON forbids (bare dot)", written("1.", "search", "option", 429)],
    ["a key twice (the last wins)", written(1, "a", "option", 429).replace(/\}$/, ',"until":5}')],
    ["a message (older writers)", written(1, "a", "option", 429).replace(/\}$/, ',"message":"m"}')],
    ["a message that is no text", written(1, "a", "option", 429).replace(/\}$/, ',"message":1}')],
    ["spaces", '{ "until": 1, "limit": "a", "limitSource": "option", "status": 429 }'],
    ["a trailing character", `${written(1, "a", "option", 429)} `],
    ["a resetsAt of null", written(1, "a", "option", 429).replace(/\}$/, ',"resetsAt":null}')],
    ["not JSON", "{until:1}"],
    ["empty", ""],
  ])("%s", (_name, text) => {
    expect(entryOfText(text)).toStrictEqual(oracle(text));
  });

  it("the fast path takes the form this library writes, and only gives what JSON.parse gives", () => {
    const text = written("1764590000123.457", "search", "option", 429);
    expect(parseWritten(text)).toStrictEqual(JSON.parse(text));
    expect(parseWritten(`${text} `)).toBeUndefined();
    expect(parseWritten(written(1, 'a"b', "option", 429))).toBeUndefined();
  });

  const numberText = fc.oneof(
    fc.double().map((value) => JSON.stringify(value)),
    fc.integer().map(String),
    fc.constantFrom(
      "1e999",
      "-1e999",
      "-0",
      "0.5e-3",
      "1E+2",
      "01",
      "1.",
      ".5",
      "+1",
      "NaN",
      "4.29e2",
    ),
  );
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.constantFrom("search", "option", "upstream", "host", "", "a\\b", 'a"b', "\u0000", "\ud800"),
  );
  const writtenLike = fc
    .tuple(
      numberText,
      text,
      fc.oneof(fc.constantFrom("option", "upstream", "host"), text),
      fc.oneof(fc.integer({ min: 399, max: 600 }).map(String), numberText),
      fc.option(numberText, { nil: undefined }),
    )
    .map(([until, limit, limitSource, status, resetsAt]) => {
      const body = `"until":${until},"limit":"${limit}","limitSource":"${limitSource}","status":${status}`;
      return `{${body}${resetsAt === undefined ? "" : `,"resetsAt":${resetsAt}`}}`;
    });
  // A written entry with one character put in, taken out or changed, anywhere.
  const mutated = fc
    .tuple(
      fc.constantFrom(
        written("1764590000123.457", "search", "option", 429),
        written(1, "search", "upstream", 503).replace(/\}$/, ',"resetsAt":2000}'),
      ),
      fc.nat(),
      fc.constantFrom("insert", "delete", "replace"),
      fc.string({ minLength: 1, maxLength: 1, unit: "binary" }),
    )
    .map(([base, at, edit, char]) => {
      const i = at % base.length;
      if (edit === "insert") return base.slice(0, i) + char + base.slice(i);
      if (edit === "delete") return base.slice(0, i) + base.slice(i + 1);
      return base.slice(0, i) + char + base.slice(i + 1);
    });

  it("on random texts, written-like texts and written entries with one character changed", () => {
    fc.assert(
      fc.property(fc.oneof(writtenLike, mutated, fc.json(), text), (input) => {
        expect(entryOfText(input)).toStrictEqual(oracle(input));
        const fast = parseWritten(input);
        if (fast !== undefined) expect(fast).toStrictEqual(JSON.parse(input));
      }),
      { numRuns: 20_000 },
    );
  });
});
