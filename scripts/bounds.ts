// The size bounds of src/: a file holds at most 300 lines and a function at most 60, so each
// unit can be read in one sitting. Data tables (a row per provider or per pattern) are exempt:
// their length is their content, not a unit asking to be split. Functions are read from the
// syntax tree with the TypeScript compiler: declarations, methods, accessors, constructors,
// function expressions and arrow functions, each measured from its first line to its last (a
// nested function counts inside its parent as well as on its own).
//
// Run `npx tsx scripts/bounds.ts` to print every file and function over the bounds.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The most lines a file of src/ may hold. */
export const MAX_FILE_LINES = 300;
/** The most lines a function of src/ may span. */
export const MAX_FUNCTION_LINES = 60;

/** A unit over its bound: a file, or a function at `file:line`. */
export interface Oversize {
  /** `path` for a file, `path:line` for a function (the line it starts on). */
  where: string;
  lines: number;
}

const SOURCE = resolve(fileURLToPath(new URL("../src/", import.meta.url)));

/** Every `.ts` file under `dir`, as paths relative to it with `/` separators. */
export function sourceFiles(dir = SOURCE): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) found.push(relative(dir, path).split("\\").join("/"));
    }
  };
  walk(dir);
  return found.sort();
}

/** How many lines `text` holds (a final newline ends the last line, it starts none). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** The functions of one source text longer than `max` lines, by the line each starts on. */
export function longFunctions(text: string, max = MAX_FUNCTION_LINES): Oversize[] {
  const file = ts.createSourceFile("unit.ts", text, ts.ScriptTarget.Latest, true);
  const long: Oversize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) long.push({ where: String(first + 1), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return long;
}

/**
 * Every file over `MAX_FILE_LINES` and every function over `MAX_FUNCTION_LINES` in `dir`,
 * skipping the files `tables` names (paths relative to `dir`).
 */
export function oversizeUnits(
  tables: ReadonlySet<string>,
  dir = SOURCE,
): { files: Oversize[]; functions: Oversize[] } {
  const files: Oversize[] = [];
  const functions: Oversize[] = [];
  for (const path of sourceFiles(dir)) {
    if (tables.has(path)) continue;
    const text = readFileSync(join(dir, path), "utf8");
    const lines = lineCount(text);
    if (lines > MAX_FILE_LINES) files.push({ where: path, lines });
    for (const long of longFunctions(text)) {
      functions.push({ where: `${path}:${long.where}`, lines: long.lines });
    }
  }
  return { files, functions };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, functions } = oversizeUnits(new Set());
  for (const unit of [...files, ...functions]) console.log(`${unit.where}\t${unit.lines}`);
}
