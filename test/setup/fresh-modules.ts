// The setup of the test files that share a worker (vitest.config.ts: the pure ones, which start
// no server, patch no global and mock nothing). Sharing saves starting a worker and loading
// vitest and the libraries again for each file; two things keep each file as much apart as in a
// worker of its own. The modules vitest loads (the package's source, the tests' own helpers) are
// loaded afresh for the file, so no module-level state of the package (a cache, a default store)
// carries over from the file before. And the file fails if it leaves a global changed: added,
// removed or replaced on globalThis, or Error.stackTraceLimit moved, so none can leak one to the
// next file.

import { afterAll, expect, vi } from "vitest";

vi.resetModules();

/** Each own property of globalThis (names and symbols) with its value, and the stack limit. */
function globals(): Map<PropertyKey, unknown> {
  const found = new Map<PropertyKey, unknown>();
  for (const key of Reflect.ownKeys(globalThis)) {
    // Read, not described: Node defines some globals (AbortController, fetch) as getters that
    // replace themselves with their value when first read.
    found.set(key, Reflect.get(globalThis, key));
  }
  found.set("Error.stackTraceLimit", Error.stackTraceLimit);
  return found;
}

// Set by others than the tests: vitest's expect state, made for each file; and what is made once,
// the first time it is needed, and kept: the dispatcher of Node's fetch, zod's configuration and
// registry (a library loaded once for the worker). One of those replaced is still a change.
const VITEST_EXPECT = Symbol.for("$$jest-matchers-object");
// (undici's symbol carries its major's number: `.1` in Node 20's, `.2` in Node 24's.)
// The package's own marks (the results it built, the answers sdkFetch built from a cooldown) are
// kept the same way, so two copies of the package in one process share them.
const FIRST_USE = new Set<PropertyKey>([
  "__zod_globalConfig",
  "__zod_globalRegistry",
  Symbol.for("mcp-upstream-throttle.built-results"),
  Symbol.for("mcp-upstream-throttle.cooldown-answers"),
]);
const madeOnFirstUse = (key: PropertyKey) =>
  FIRST_USE.has(key) ||
  (typeof key === "symbol" && /^undici\.globalDispatcher\.\d+$/.test(key.description ?? ""));

const before = globals();

afterAll(() => {
  const after = globals();
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((key) => {
    if (key === VITEST_EXPECT || (madeOnFirstUse(key) && !before.has(key))) return false;
    return !after.has(key) || !before.has(key) || !Object.is(after.get(key), before.get(key));
  });
  expect(changed.map(String), "globals this file left changed").toEqual([]);
});
