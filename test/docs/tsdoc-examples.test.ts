// The TSDoc is the hover text users read in their editor, so it must stand alone and stay true:
// every public function and class of every published entry has a one-line summary and an
// `@example`; every ```ts block in a TSDoc comment of the files the entries reach compiles as a
// module of its own (the package's names resolve to its source); no comment cites a document the
// package does not ship; and no `@word` that is not a TSDoc tag (a scoped package name such as
// `@scope/name` outside backticks is read as a tag and cuts the hover short). The README's and
// the guides' ```ts blocks are compiled too, in the same program: a block that is only a fragment
// is not TypeScript, so write it as ```text. Run alone, this file compiles the blocks under
// test/.tmp/tsdoc/ and test/.tmp/docs/; under `npm test`, the typecheck beside the tests compiles
// them in its program (typecheck.ts, under test/.tmp/typecheck/) and this file checks its verdict.

import { relative } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type BlocksVerdict,
  entries,
  errorsIn,
  pageBlocks,
  repoOptions,
  root,
  sourcesOf,
  tsdocBlocks,
  tsdocComments,
  verdictIn,
  writeBlocks,
} from "./typecheck-blocks.js";

let program: ts.Program;
let sources: ts.SourceFile[];
/** The blocks, read here from the entries' TSDoc and the pages. */
const blocks = { tsdoc: new Map<string, string>(), docs: new Map<string, string>() };
/** What the compiler said of them. */
let verdict: BlocksVerdict;

// Under `npm test`, the typecheck beside the tests compiles the blocks in its program (building
// a second one here would parse the libraries' declarations again) and names its verdict's file.
const verdictFile = process.env.DOCS_BLOCKS_VERDICT;

beforeAll(async () => {
  const options = repoOptions();
  program = ts.createProgram(await entries(), options);
  sources = sourcesOf(program);
  blocks.tsdoc = tsdocBlocks(sources);
  blocks.docs = await pageBlocks();
  if (verdictFile !== undefined) {
    verdict = await verdictIn(verdictFile, 280_000);
    return;
  }
  const tsdocFiles = await writeBlocks("test/.tmp/tsdoc", blocks.tsdoc);
  const docsFiles = await writeBlocks("test/.tmp/docs", blocks.docs);
  const roots = [...program.getRootFileNames(), ...tsdocFiles, ...docsFiles];
  // The entries, the TSDoc blocks and the pages' blocks: one program, whose parse is reused.
  const withBlocks = ts.createProgram(roots, options, undefined, program);
  verdict = {
    tsdoc: { blocks: Object.fromEntries(blocks.tsdoc), errors: errorsIn(withBlocks, tsdocFiles) },
    docs: { blocks: Object.fromEntries(blocks.docs), errors: errorsIn(withBlocks, docsFiles) },
  };
  // Building the program reads every declaration the entries reach: seconds alone, more on a
  // loaded 2-core machine; the typecheck's verdict comes once its whole program is checked.
}, 300_000);

/** Every `//` and TSDoc comment of a file. */
function allComments(file: ts.SourceFile): string[] {
  return [...file.text.matchAll(/\/\*[\s\S]*?\*\/|\/\/.*$/gm)].map((match) => match[0]);
}

/** The exported functions and classes of each entry, with the declaration that documents them. */
function publicValues(): { name: string; declaration: ts.Declaration }[] {
  const checker = program.getTypeChecker();
  const found: { name: string; declaration: ts.Declaration }[] = [];
  for (const file of sources) {
    if (!program.getRootFileNames().includes(file.fileName)) continue;
    const module = checker.getSymbolAtLocation(file);
    if (module === undefined) continue;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        if (ts.isFunctionDeclaration(declaration) || ts.isClassDeclaration(declaration)) {
          found.push({
            name: `${relative(root, file.fileName)}: ${exported.name}`,
            declaration,
          });
          break;
        }
      }
    }
  }
  return found;
}

/** How the project's own history reads: an issue number, "this round", "round 3". */
const HISTORY = /\bissues? #?\d+|\bthis round\b|\bround \d+\b/i;

// The tags TSDoc and TypeDoc know that this project uses.
const TAGS = new Set([
  "default",
  "example",
  "module",
  "param",
  "returns",
  "throws",
  "typeParam",
  "remarks",
  "see",
  "link",
  "deprecated",
  "internal",
]);

describe("the TSDoc of the published entries", () => {
  it("gives every public function and class a one-line summary and an @example", () => {
    const values = publicValues();
    expect(values.length).toBeGreaterThan(25);
    const missing: string[] = [];
    for (const { name, declaration } of values) {
      const docs = ts.getJSDocCommentsAndTags(declaration).filter(ts.isJSDoc);
      const doc = docs.at(-1);
      const summary = ts.getTextOfJSDocComment(doc?.comment)?.trim() ?? "";
      const examples = (doc?.tags ?? []).filter((tag) => tag.tagName.text === "example");
      const fenced = examples.every((tag) =>
        /```ts\n[\s\S]*```/.test(ts.getTextOfJSDocComment(tag.comment) ?? ""),
      );
      if (summary === "" || examples.length === 0 || !fenced) missing.push(name);
    }
    expect(missing).toEqual([]);
  });

  it("cite no document the package does not ship (design notes, section numbers)", () => {
    const cited: string[] = [];
    for (const file of sources) {
      for (const comment of allComments(file)) {
        // An RFC's section is a public document; anything else with a § is the design notes.
        const bare = comment.replace(/RFC \d+ §\s*[\d.]+/g, "");
        if (/design(\.md)?\s*§|§/i.test(bare))
          cited.push(`${relative(root, file.fileName)}: ${comment}`);
      }
    }
    expect(cited).toEqual([]);
  });

  it("name no issue, no round of work and no guide by its path in the repo, in // comments too", () => {
    // The built code and declarations ship without docs/: a guide is named by its URL, or not.
    const found: string[] = [];
    for (const file of sources) {
      for (const comment of allComments(file)) {
        const bare = comment.replace(/https:\/\/\S+/g, "");
        if (HISTORY.test(bare) || /\bdocs\/[\w-]+\.md\b/.test(bare))
          found.push(`${relative(root, file.fileName)}: ${comment}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("name no file of the repository in a TSDoc comment: the declarations ship them", () => {
    // A test, a module by its file name or a path of the repo means nothing to a user; a file of
    // the user's own in an example's code is fine. (The build holds the shipped JavaScript's
    // comments to the same rule: scripts/shipped-comments.mjs.)
    const repoFile =
      /\b(?:src|test|bench|scripts|docs|examples|\.ci)\/[\w./-]+|(?<![\w@/.-])[\w-]+\.(?:test\.)?(?:ts|mts|md)\b/;
    const found: string[] = [];
    for (const file of sources) {
      for (const comment of tsdocComments(file)) {
        const bare = comment.replace(/```[\s\S]*?```/g, "").replace(/https:\/\/\S+/g, "");
        if (repoFile.test(bare)) found.push(`${relative(root, file.fileName)}: ${comment}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("hold no @word that is not a TSDoc tag (package names go in backticks)", () => {
    const stray: string[] = [];
    for (const file of sources) {
      for (const comment of tsdocComments(file)) {
        const prose = comment.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
        for (const match of prose.matchAll(/(?<![\w.])@([\w-]+)/g)) {
          if (!TAGS.has(match[1] ?? ""))
            stray.push(`${relative(root, file.fileName)}: ${match[0]}`);
        }
      }
    }
    expect(stray).toEqual([]);
  });

  it("hold ```ts examples that all compile", () => {
    expect(verdict.failed).toBeUndefined();
    expect(blocks.tsdoc.size).toBeGreaterThan(25);
    // The very blocks read here were compiled, whichever program compiled them.
    expect(verdict.tsdoc.blocks).toStrictEqual(Object.fromEntries(blocks.tsdoc));
    expect(verdict.tsdoc.errors).toBe("");
  });
});

describe("the README and the guides", () => {
  it("hold TypeScript blocks that all compile", () => {
    expect(verdict.failed).toBeUndefined();
    expect(blocks.docs.size).toBeGreaterThan(0);
    expect(verdict.docs.blocks).toStrictEqual(Object.fromEntries(blocks.docs));
    expect(verdict.docs.errors).toBe("");
    // A cast that silences the compiler would let a block compile that a user's code would not.
    const casts = [...blocks.docs].filter(([, block]) =>
      /\bas (never|any)\b|@ts-(ignore|expect-error)/.test(block),
    );
    expect(casts.map(([name]) => name)).toStrictEqual([]);
  });
});
