// zod 3 for the "./zod" entry's widenOutputShape, loaded on the first zod 3 shape it is given, so
// that a project on zod 4 never loads zod 3. Synchronously, as widenOutputShape answers: the
// module `import "zod/v3"` resolves to is required (require(esm): Node 20.19+, Bun, Deno), which
// takes it from the same module cache as `import`, so the schemas are built by the project's own
// zod 3 classes. Runtimes without `require` take the "./zod3" entry, which imports zod 3.

import type * as Z3 from "zod/v3";

type NodeModule = typeof import("node:module");
type NodeUrl = typeof import("node:url");

const NO_LOADER =
  "`shape` holds zod 3 schemas, and zod 3 cannot be loaded on demand in this runtime: widen it with `widenOutputShape` of `mcp-upstream-throttle/zod3`";

let zod3: typeof Z3 | undefined;

/** The project's `zod/v3`, loaded on the first call. */
export function loadZod3(): typeof Z3 {
  if (zod3 !== undefined) return zod3;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const module = proc?.getBuiltinModule?.("node:module") as NodeModule | undefined;
  const url = proc?.getBuiltinModule?.("node:url") as NodeUrl | undefined;
  if (module === undefined || url === undefined || typeof import.meta.resolve !== "function") {
    throw new TypeError(NO_LOADER);
  }
  try {
    const path = url.fileURLToPath(import.meta.resolve("zod/v3"));
    zod3 = module.createRequire(import.meta.url)(path) as typeof Z3;
  } catch (cause) {
    throw new TypeError(NO_LOADER, { cause });
  }
  return zod3;
}
