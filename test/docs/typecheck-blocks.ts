// What the docs tests share: the pages, their ```ts blocks, and the typecheck of blocks written
// out as modules of their own, with the repo's compiler options (the package's names resolve to
// its source). Building a program (parsing the libraries' declarations) is what costs, so every
// block is checked in a program that is built anyway: under `npm test`, the typecheck's
// (typecheck.ts); alone, the one that also reads the entries' TSDoc.

import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** The README and every guide, relative to the repo. */
export async function pages(): Promise<string[]> {
  const guides = (await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md"));
  return ["README.md", ...guides.map((name) => `docs/${name}`)];
}

/** Every ```ts block of a text (markdown, or a comment stripped of its ` * `). */
export function tsBlocks(text: string): string[] {
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
}

/** The entries TypeDoc documents (typedoc.json), as absolute paths. */
export async function entries(): Promise<string[]> {
  const typedoc = JSON.parse(await readFile(join(root, "typedoc.json"), "utf8")) as {
    entryPoints: string[];
  };
  return typedoc.entryPoints.map((entry) => join(root, entry));
}

/** The files of `program` under src/: the source the entries reach. */
export function sourcesOf(program: ts.Program): ts.SourceFile[] {
  const src = join(root, "src/");
  return program.getSourceFiles().filter((file) => file.fileName.startsWith(src));
}

/** The TSDoc comments of a file, each without its `/**`, `*\/` and leading ` * `. */
export function tsdocComments(file: ts.SourceFile): string[] {
  return [...file.text.matchAll(/\/\*\*([\s\S]*?)\*\//g)].map((match) =>
    (match[1] ?? "")
      .split("\n")
      .map((line) => line.replace(/^\s*\* ?/, ""))
      .join("\n"),
  );
}

/** Every ```ts block of the TSDoc comments of `sources`, named by its file. */
export function tsdocBlocks(sources: ts.SourceFile[]): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const source of sources) {
    const name = relative(root, source.fileName).replace(/[/.]/g, "_");
    for (const [index, block] of tsdocComments(source).flatMap(tsBlocks).entries())
      blocks.set(`${name}_${index + 1}`, block);
  }
  return blocks;
}

/** Every ```ts block of the README and the guides, named by its page. */
export async function pageBlocks(): Promise<Map<string, string>> {
  const blocks = new Map<string, string>();
  for (const page of await pages()) {
    const text = await readFile(join(root, page), "utf8");
    for (const [index, block] of tsBlocks(text).entries())
      blocks.set(`${page.replace(/[/.]/g, "_")}_${index + 1}`, block);
  }
  return blocks;
}

/**
 * The repo's compiler options (tsconfig.json), the strictest a user's project may have
 * (`strict`, `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`): a block that compiles
 * here compiles in theirs.
 */
export function repoOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    { noUnusedLocals: false },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (config === undefined) throw new Error("tsconfig.json could not be read");
  return config.options;
}

/** Writes `blocks` (name → code) under `folder` (relative to the repo); answers their paths. */
export async function writeBlocks(folder: string, blocks: Map<string, string>): Promise<string[]> {
  const out = join(root, folder);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const files: string[] = [];
  for (const [name, block] of blocks) {
    const file = join(out, `${name}.ts`);
    // Each block is a module of its own, even one without an import.
    await writeFile(file, `${block}\nexport {};\n`);
    files.push(file);
  }
  return files;
}

/**
 * What the compiler says of `files` in `program` (their syntax and types, and the program's
 * options), as tsc prints it; "" when every one compiles. The files they import (the package's
 * source) are checked by `npm run typecheck`.
 */
export function errorsIn(program: ts.Program, files: string[]): string {
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) return `${file}: not in the program`;
    diagnostics.push(
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    );
  }
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  });
}

/** What a typecheck found of one kind of block: the blocks it compiled, and the errors. */
export interface BlocksFound {
  /** Each block's text, by name. */
  blocks: Record<string, string>;
  /** As `errorsIn` says them: "" when every block compiles. */
  errors: string;
}

/** What a typecheck found of the TSDoc's blocks and of the pages' blocks. */
export interface BlocksVerdict {
  tsdoc: BlocksFound;
  docs: BlocksFound;
  /** Set when the typecheck could not check the blocks at all. */
  failed?: string;
}

/**
 * The verdict the typecheck beside the tests writes to `file` once its program is checked,
 * waited for (the typecheck takes most of a minute, longer on a loaded machine).
 */
export async function verdictIn(file: string, waitMs: number): Promise<BlocksVerdict> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return JSON.parse(await readFile(file, "utf8")) as BlocksVerdict;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      if (Date.now() > deadline) throw new Error(`the typecheck wrote no ${file}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
