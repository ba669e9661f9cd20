import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig, type ViteUserConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The pure tests: values in, values out (header and body rules, the cleaning of untrusted text,
// the result contract, the internal helpers, the error class, the memory store with its clock
// passed, hostile values, the docs and the repo's own rules read as text). None starts a server,
// a child or a store of a process, patches a global, subscribes to a channel or mocks a module,
// so they share a worker instead of starting one each; test/setup/fresh-modules.ts loads the
// package afresh for each of them and fails one that leaves a global changed. A file added here
// must be one of that kind.
const shared = [
  "test/signals/**/*.test.ts",
  "test/untrusted/message-fast.test.ts",
  "test/untrusted/secrets.test.ts",
  "test/untrusted/secrets-rolling.test.ts",
  "test/contract/result.test.ts",
  "test/contract/widen.test.ts",
  "test/internal/**/*.test.ts",
  "test/errors/**/*.test.ts",
  "test/cooldown/memory.test.ts",
  "test/cooldown/lookup.test.ts",
  "test/cooldown/partition.test.ts",
  "test/security/hostile-values.test.ts",
  "test/security/invisible-unicode.test.ts",
  "test/security/large-bodies.test.ts",
  "test/wrappers/read-body.test.ts",
  "test/wrappers/output-schema.test.ts",
  "test/docs/code-blocks.test.ts",
  "test/docs/door-table.test.ts",
  "test/bounds.test.ts",
  "test/layers.test.ts",
];

/** What both projects share (a project's own `include` and `setupFiles` replace, not add). */
const common = {
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
    // The type tests (test/**/*.test-d.ts) are in tsconfig.json's program: `npm run typecheck`
    // fails on a broken type assertion, so vitest does not build that program a second time.
    // Worker threads start faster than child processes (measured: 38 files took 71 s in threads
    // and 87 s in forks, 2 workers each).
    pool: "threads",
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where
    // the main process is idle while the tests run and half the tests wait on sockets and Redis.
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
  },
} satisfies ViteUserConfig;

/** nock 15 needs Promise.withResolvers, which Node 20 lacks: every file gets it first. */
const withResolvers = "./test/setup/promise-with-resolvers.ts";

export default defineConfig({
  ...common,
  test: {
    ...common.test,
    projects: [
      {
        ...common,
        test: {
          ...common.test,
          // Each file gets a fresh worker and fresh modules. The sequencer runs these first.
          name: "isolated",
          include: ["test/**/*.test.ts", "examples/testing/**/*.test.ts"],
          // The consumer projects install the packed package themselves (.ci/consumers.sh).
          exclude: [...configDefaults.exclude, "test/consumers/**", ...shared],
          setupFiles: [withResolvers],
        },
      },
      {
        ...common,
        test: {
          ...common.test,
          name: "shared",
          include: shared,
          isolate: false,
          setupFiles: [withResolvers, "./test/setup/fresh-modules.ts"],
        },
      },
    ],
  },
});
