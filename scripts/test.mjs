// `npm test` after the lint: the typecheck runs beside vitest instead of before it. On a 2-core
// machine the tests leave a core idle while they wait on sockets, child processes and Redis; the
// typecheck takes that core. It is tsc -p tsconfig.json's program (the type tests among it) with
// the docs' ```ts blocks added (test/docs/typecheck.ts): the docs test reads its verdict on them
// from the file DOCS_BLOCKS_VERDICT names, instead of building a second program of the same
// declarations in a test worker. Arguments go to vitest. The typecheck's output is printed once
// vitest is done, and the run fails if either one failed.

import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Runs `args` with this Node, in the repo; answers its exit code and, if piped, its output. */
function run(args, stdio, env = process.env) {
  const child = spawn(process.execPath, args, { cwd: root, stdio, env });
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("error", (error) => {
      output.push(Buffer.from(`${String(error)}\n`));
      resolve({ code: 1, output });
    });
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

// One file a run, so that a verdict left by an earlier run is never read.
const verdict = join(root, "test/.tmp/typecheck", `verdict-${process.pid}.json`);
const typecheck = run(["--import", "tsx", "test/docs/typecheck.ts", verdict], "pipe");
const tests = await run(
  ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)],
  "inherit",
  { ...process.env, DOCS_BLOCKS_VERDICT: verdict },
);
const types = await typecheck;
await rm(verdict, { force: true });
process.stdout.write(Buffer.concat(types.output));
const said = types.code === 0 ? "no errors" : "failed";
console.log(`typecheck (tsc -p tsconfig.json, with the docs' ts blocks): ${said}`);
process.exitCode = tests.code !== 0 ? tests.code : types.code;
