// The process's axios, found at run time without a static import: the main entry loads where
// axios is not installed. axios ships two builds, an ES module (what `import axios` gets) and a
// CommonJS one (what `require("axios")` gets), each with its own default export; both are found.

import { isObject } from "../internal/is-object.js";

type Require = ((id: string) => unknown) & { resolve: (id: string) => string };
interface ModuleApi {
  createRequire: (from: string) => Require;
}
interface PathApi {
  dirname: (path: string) => string;
  join: (...parts: string[]) => string;
}

/** The default exports of axios reachable from the working directory, each build once. */
export function findAxios(): unknown[] {
  const proc = (
    globalThis as {
      process?: { cwd?: () => string; getBuiltinModule?: (id: string) => unknown };
    }
  ).process;
  const modules = proc?.getBuiltinModule?.("node:module") as ModuleApi | undefined;
  const paths = proc?.getBuiltinModule?.("node:path") as PathApi | undefined;
  if (modules === undefined || paths === undefined || proc?.cwd === undefined) return [];
  const found = new Set<unknown>();
  let require: Require;
  try {
    require = modules.createRequire(paths.join(proc.cwd(), "package.json"));
  } catch {
    return [];
  }
  const cjs = attempt(() => require("axios"));
  if (cjs !== undefined) found.add(defaultOf(cjs));
  const esm = attempt(() => {
    const manifest = require.resolve("axios/package.json");
    const entry = esmEntry(require(manifest));
    // `require` of an ES module gives the same module `import` does (Node 20.19 and later).
    return entry === undefined ? undefined : require(paths.join(paths.dirname(manifest), entry));
  });
  if (esm !== undefined) found.add(defaultOf(esm));
  found.delete(undefined);
  return [...found];
}

function attempt(load: () => unknown): unknown {
  try {
    return load();
  } catch {
    return undefined;
  }
}

function defaultOf(module: unknown): unknown {
  if (typeof module === "function") return module;
  return isObject(module) ? module.default : undefined;
}

/** The ES module entry a package.json names for `import` (axios: `exports["."].default.default`). */
function esmEntry(manifest: unknown): string | undefined {
  if (!isObject(manifest)) return undefined;
  const exports = isObject(manifest.exports) ? manifest.exports["."] : undefined;
  const node = isObject(exports) ? exports.default : undefined;
  const entry = isObject(node) ? node.default : undefined;
  if (typeof entry === "string") return entry;
  return typeof manifest.module === "string" ? manifest.module : undefined;
}
