import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The examples import the package by name, as its users do; here the name is its source.
  resolve: {
    alias: [
      { find: /^mcp-upstream-throttle\/client$/, replacement: source("./src/client/index.ts") },
      { find: /^mcp-upstream-throttle\/testing$/, replacement: source("./src/testing/index.ts") },
      {
        find: /^mcp-upstream-throttle\/testing\/(vitest|node)$/,
        replacement: source("./src/testing/$1.ts"),
      },
      { find: /^mcp-upstream-throttle\/zod$/, replacement: source("./src/zod.ts") },
      { find: /^mcp-upstream-throttle$/, replacement: source("./src/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "examples/testing/**/*.test.ts"],
    // The consumer projects install the packed package themselves (.ci/consumers.sh).
    exclude: [...configDefaults.exclude, "test/consumers/**"],
    // The type tests (test/**/*.test-d.ts) are in tsconfig.json's program: `npm run typecheck`
    // fails on a broken type assertion, so vitest does not build that program a second time.
    // Worker threads start faster than child processes (measured: 38 files took 71 s in threads
    // and 87 s in forks, 2 workers each). Each file still gets a fresh worker and fresh modules.
    pool: "threads",
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where
    // the main process is idle while the tests run and half the tests wait on sockets and Redis.
    maxWorkers: availableParallelism(),
    setupFiles: ["./test/setup/promise-with-resolvers.ts"],
    testTimeout: 20_000,
  },
});
