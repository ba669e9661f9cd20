// The guides' and the README's ```ts blocks, typechecked by the TypeScript 7 compiler (the native
// one, whose `tsc` has no JavaScript API for typecheck.ts to use): the blocks are written out as
// modules, as typecheck.ts writes them, and a tsconfig extending the repo's lists them. The
// compiler is not a dependency of the repo; test/docs/typecheck-ts7.sh installs it in a temporary
// folder and passes its `tsc` here:
//   tsx test/docs/typecheck-ts7.ts <path to TypeScript 7's tsc>
// Prints the compiler's diagnostics and exits with its code (0 when every block compiles).

import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pageBlocks, root, writeBlocks } from "./typecheck-blocks.js";

const tsc = process.argv[2];
if (tsc === undefined) throw new Error("usage: tsx test/docs/typecheck-ts7.ts <tsc>");

const folder = "test/.tmp/typecheck-ts7";
const files = await writeBlocks(`${folder}/docs`, await pageBlocks());
const project = join(root, folder, "tsconfig.json");
await writeFile(
  project,
  JSON.stringify({
    // The repo's options (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, the
    // package's names resolved to its source); only the blocks are the program's roots.
    extends: "../../../tsconfig.json",
    compilerOptions: { noUnusedLocals: false },
    files,
    include: [],
  }),
);
const run = spawnSync(tsc, ["-p", project, "--pretty", "false"], {
  cwd: root,
  stdio: "inherit",
});
if (run.error !== undefined) throw run.error;
console.log(`${files.length} blocks, ${run.status === 0 ? "no errors" : "errors above"}`);
process.exitCode = run.status ?? 1;
