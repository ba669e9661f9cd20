// What the docs tests share: the pages, their ```ts blocks, and the typecheck of blocks written
// out as modules of their own, with the repo's compiler options (the package's names resolve to
// its source). Every block is checked in the one program that also reads the entries' TSDoc:
// building a program (parsing the libraries' declarations) is what costs, so it is built once.

import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
