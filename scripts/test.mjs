// `npm test` after the lint: the typecheck (tsc -p tsconfig.json, the type tests among it) runs
// beside vitest instead of before it. On a 2-core machine the tests leave a core idle while they
// wait on sockets, child processes and Redis; tsc takes that core. Arguments go to vitest. The
// typecheck's output is printed once vitest is done, and the run fails if either one failed.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Runs `script` (a path under the repo) with this Node; answers its exit code. */
function run(script, args, stdio) {
  const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio });
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

const typecheck = run("node_modules/typescript/bin/tsc", ["-p", "tsconfig.json"], "pipe");
const tests = await run(
  "node_modules/vitest/vitest.mjs",
  ["run", ...process.argv.slice(2)],
  "inherit",
);
const types = await typecheck;
process.stdout.write(Buffer.concat(types.output));
console.log(`typecheck (tsc -p tsconfig.json): ${types.code === 0 ? "no errors" : "failed"}`);
process.exitCode = tests.code !== 0 ? tests.code : types.code;
