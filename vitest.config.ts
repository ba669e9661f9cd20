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
    setupFiles: ["./test/setup/promise-with-resolvers.ts"],
    testTimeout: 20_000,
  },
});
