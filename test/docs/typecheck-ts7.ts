// The guides' and the README's ```ts blocks, typechecked by a given compiler: TypeScript 7 (the
// native one, whose `tsc` has no JavaScript API for typecheck.ts to use), or the repo's own. The
// blocks are written out as modules, as typecheck.ts writes them, and two tsconfigs extending the
// repo's list them:
//   - "repo": the repo's options as they are (Node's types, no DOM), as `npm test` checks them;
//   - "dom": the same with the DOM library, as in many users' projects, where `fetch` and
//     `Response` are the DOM's. Only the blocks' own diagnostics count in this pass: under these
//     options the package's source (which the blocks reach through the repo's `paths`) is not what
//     a user compiles; users get its declarations.
// The compiler is not a dependency of the repo; test/docs/typecheck-ts7.sh installs TypeScript 7
// in a temporary folder and passes its `tsc` here:
//   tsx test/docs/typecheck-ts7.ts <tsc> [repo|dom ...]
// Prints each pass's diagnostics and exits 1 when a pass found any.

import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pageBlocks, root, writeBlocks } from "./typecheck-blocks.js";

const [tsc, ...asked] = process.argv.slice(2);
if (tsc === undefined) throw new Error("usage: tsx test/docs/typecheck-ts7.ts <tsc> [repo|dom]");

const folder = "test/.tmp/typecheck-ts7";
const passes = {
  repo: {},
  dom: { lib: ["ES2023", "DOM", "DOM.Iterable"] },
} satisfies Record<string, Record<string, unknown>>;
type Pass = keyof typeof passes;
const names = (asked.length > 0 ? asked : Object.keys(passes)) as Pass[];
for (const name of names)
  if (!(name in passes)) throw new Error(`no pass "${name}": one of ${Object.keys(passes)}`);

const files = await writeBlocks(`${folder}/docs`, await pageBlocks());
const blocksDir = join(root, folder, "docs");

/** The diagnostics of `output` (tsc's, not pretty) whose file is a block, with their lines. */
function blocksOnly(output: string): string {
  const kept: string[] = [];
  let keep = false;
  for (const line of output.split("\n")) {
    if (!line.startsWith(" ")) keep = line.startsWith(blocksDir) || line.startsWith(`${folder}/`);
    if (keep && line !== "") kept.push(line);
  }
  return kept.join("\n");
}

let failed = false;
for (const name of names) {
  const project = join(root, folder, `tsconfig.${name}.json`);
  await writeFile(
    project,
    JSON.stringify({
      // The repo's options (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, the
      // package's names resolved to its source); only the blocks are the program's roots.
      extends: "../../../tsconfig.json",
      compilerOptions: { noUnusedLocals: false, ...passes[name] },
      files,
      include: [],
    }),
  );
  const run = spawnSync(tsc, ["-p", project, "--pretty", "false"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error !== undefined) throw run.error;
  const found = name === "repo" ? `${run.stdout}`.trim() : blocksOnly(run.stdout);
  if (name === "repo" && run.status !== 0 && found === "") failed = true;
  if (found !== "") {
    failed = true;
    console.log(found);
  }
  console.log(`${name}: ${files.length} blocks, ${found === "" ? "no errors" : "errors above"}`);
}
process.exitCode = failed ? 1 : 0;
