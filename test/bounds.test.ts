// Files in src/ hold at most 300 lines and functions at most 60 (scripts/bounds.ts states the
// rule), data tables aside.

import { describe, expect, it } from "vitest";
import {
  lineCount,
  longFunctions,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  oversizeUnits,
} from "../scripts/bounds.js";

/**
 * Data tables, exempt from the bounds: their length is their rows, not a unit to split.
 * - untrusted/key-patterns.ts: one pattern per credential format a provider documents.
 */
const TABLES: ReadonlySet<string> = new Set(["untrusted/key-patterns.ts"]);

describe("the size of the units of src/", () => {
  const { files, functions } = oversizeUnits(TABLES);

  it(`has no file over ${MAX_FILE_LINES} lines, data tables aside`, () => {
    expect(files).toStrictEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(functions).toStrictEqual([]);
  });
});

describe("the bounds rule itself", () => {
  const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  f${i}();`).join("\n");

  it("counts a function from its first line to its last, whatever its kind", () => {
    const text = [
      `function within() {\n${body(58)}\n}`,
      `const arrow = () => {\n${body(58)}\n};`,
      `class C {\n  method() {\n${body(60)}\n  }\n}`,
      `const expression = function () {\n${body(60)}\n};`,
    ].join("\n");
    const starts = longFunctions(text).map((unit) => [unit.where, unit.lines]);
    // The declaration (lines 1-60) and the arrow (61-120) are at the bound; the class (121-184)
    // is no function; its method (122-183) and the expression (185-246) are over it.
    expect(starts).toStrictEqual([
      ["122", 62],
      ["185", 62],
    ]);
    expect(lineCount(text)).toBe(246);
  });

  it("counts a nested function inside its parent as well as on its own", () => {
    const text = `function outer() {\n  const inner = () => {\n${body(60)}\n  };\n}\n`;
    expect(longFunctions(text).map((unit) => unit.lines)).toStrictEqual([64, 62]);
  });

  it("counts a file's lines without a line after its final newline", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("")).toBe(0);
  });
});
