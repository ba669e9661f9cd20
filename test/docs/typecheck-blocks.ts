// What the two docs tests share: write code blocks as modules of their own in a folder, then
// typecheck them with the repo's compiler options (the package's names resolve to its source).

import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** Every ```ts block of a text (markdown, or a comment stripped of its ` * `). */
export function tsBlocks(text: string): string[] {
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
}

/**
 * Writes `blocks` (name → code) under `folder` (relative to the repo) and typechecks them;
 * answers tsc's output, "" when every block compiles.
 */
export async function typecheckBlocks(
  folder: string,
  blocks: Map<string, string>,
  compilerOptions: Record<string, unknown> = {},
): Promise<{ count: number; output: string }> {
  const out = join(root, folder);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const files: string[] = [];
  for (const [name, block] of blocks) {
    const file = join(out, `${name}.ts`);
    // Each block is a module of its own, even one without an import.
    await writeFile(file, `${block}\nexport {};\n`);
    files.push(relative(out, file));
  }
  await writeFile(
    join(out, "tsconfig.json"),
    JSON.stringify({
      extends: relative(out, join(root, "tsconfig.json")),
      compilerOptions: { noUnusedLocals: false, ...compilerOptions },
      include: files,
    }),
  );
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  const output = await promisify(execFile)(
    process.execPath,
    [tsc, "-p", join(out, "tsconfig.json")],
    {
      cwd: root,
    },
  ).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  return { count: files.length, output };
}
