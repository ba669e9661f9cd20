// Imports in src/ run one way and form no cycle (scripts/layers.ts states the rule), with no
// exception: the imports the rule found when it was written are all gone.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph, layerOf, layerViolations } from "../scripts/layers.js";

/** A scratch src/ of the given files, each holding the given source. */
function scratchSource(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "layers-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("the layers of src/", () => {
  const graph = importGraph();

  it("places every file of src/ in a layer", () => {
    expect(() => [...graph.keys()].map(layerOf)).not.toThrow();
    expect(graph.size).toBeGreaterThan(50);
  });

  it("has no import against the layers", () => {
    expect(layerViolations(graph)).toStrictEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(importCycles(graph)).toStrictEqual([]);
  });
});

describe("the layering rule itself", () => {
  it("counts a type-only import, a re-export and an import() type against the layers", () => {
    const dir = scratchSource({
      "signals/a.ts": 'import type { S } from "../cooldown/store.js";\nexport type T = S;\n',
      "signals/b.ts": 'export type { S } from "../wrappers/fetch.js";\n',
      "untrusted/c.ts": 'export type U = import("../signals/a.js").T;\n',
      "internal/d.ts": 'export const d = () => import("../client/index.js");\n',
      "cooldown/store.ts": "export type S = string;\n",
      "wrappers/fetch.ts": "export type S = string;\n",
      "client/index.ts": "export {};\n",
    });
    try {
      expect(layerViolations(importGraph(dir))).toStrictEqual([
        "internal/d.ts -> client/index.ts",
        "signals/a.ts -> cooldown/store.ts",
        "signals/b.ts -> wrappers/fetch.ts",
        "untrusted/c.ts -> signals/a.ts",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets the doors reach down, the host side use the contract, and every layer report events", () => {
    const dir = scratchSource({
      "index.ts": 'export { f } from "./wrappers/fetch.js";\n',
      "wrappers/fetch.ts": 'import "../cooldown/memory.js";\nexport const f = 1;\n',
      "cooldown/memory.ts": 'import "../errors/e.js";\nimport "../observability/events.js";\n',
      "errors/e.ts": 'import "../contract/result.js";\nimport "../signals/s.js";\n',
      "contract/result.ts": 'import "../internal/i.js";\n',
      "observability/events.ts": 'import type {} from "../signals/s.js";\n',
      "signals/s.ts": 'import "../untrusted/u.js";\n',
      "untrusted/u.ts": 'import "../internal/i.js";\n',
      "internal/i.ts": "export {};\n",
      "client/honor.ts": 'import "../contract/result.js";\nimport "../observability/events.js";\n',
    });
    try {
      const scratch = importGraph(dir);
      expect(layerViolations(scratch)).toStrictEqual([]);
      expect(importCycles(scratch)).toStrictEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds a cycle of type-only imports, and a file that imports itself", () => {
    const dir = scratchSource({
      "signals/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
      "signals/b.ts": 'import type { C } from "./c.js";\nexport type B = C;\n',
      "signals/c.ts": 'import type { A } from "./a.js";\nexport type C = A | 1;\n',
      "internal/self.ts": 'export type { X } from "./self.js";\nexport type X = 1;\n',
    });
    try {
      expect(importCycles(importGraph(dir))).toStrictEqual([
        "internal/self.ts",
        "signals/a.ts <> signals/b.ts <> signals/c.ts",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the host side off the doors and the stores", () => {
    const dir = scratchSource({
      "client/a.ts":
        'import "../wrappers/retry.js";\nimport type {} from "../cooldown/store.js";\n',
      "wrappers/retry.ts": "export {};\n",
      "cooldown/store.ts": "export {};\n",
    });
    try {
      expect(layerViolations(importGraph(dir))).toStrictEqual([
        "client/a.ts -> cooldown/store.ts",
        "client/a.ts -> wrappers/retry.ts",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
