// The main entry stays free of optional peers at run time: no MCP SDK, no vitest, no nock, no
// undici, no ioredis. Checked on the import graph of the source, following only imports that
// survive compilation (`import type` and `export type` do not).

import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "../src");
const RUNTIME_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;

async function runtimeDependencies(entry: string): Promise<Set<string>> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = await readFile(file, "utf8");
    for (const [, specifier = ""] of source.matchAll(RUNTIME_IMPORT)) {
      if (specifier.startsWith("."))
        await visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  await visit(join(SRC, entry));
  return packages;
}

/** The names a hand-picked entry exports, values and types alike (it may hold no `export *`). */
async function exportedNames(entry: string): Promise<string[]> {
  const path = join(SRC, entry);
  const file = ts.createSourceFile(path, await readFile(path, "utf8"), ts.ScriptTarget.Latest);
  return file.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement)) return [];
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) return [`* from ${entry}`];
    return clause.elements.map((element) => element.name.text);
  });
}

describe("entry points", () => {
  it("the main entry is a surface to read in one sitting: at most 45 names", async () => {
    const names = await exportedNames("index.ts");
    expect(names.filter((name) => name.startsWith("*"))).toStrictEqual([]);
    expect(names.length).toBeGreaterThan(20);
    expect(names.length).toBeLessThanOrEqual(45);
    // The undici shapes the interceptor is typed with are undici's to export, not ours.
    expect(names.filter((name) => /^Dispatch|^ResponseHeaders$/.test(name))).toStrictEqual([]);
  });

  it("the main entry loads no package at all: no zod, no node: module, no parser", async () => {
    const packages = [...(await runtimeDependencies("index.ts"))];
    expect(packages.sort()).toStrictEqual([]);
  });

  it("the zod entry imports zod 4 alone (zod 3 only on demand), and the zod 3 one zod 3 alone", async () => {
    expect([...(await runtimeDependencies("zod.ts"))].sort()).toStrictEqual(["zod/v4"]);
    expect([...(await runtimeDependencies("zod3.ts"))].sort()).toStrictEqual(["zod/v3"]);
  });

  it("importing the main entry does not load Node's fetch implementation (undici) or zlib", async () => {
    // Reading the global `Headers` (or `fetch`, `Response`) at import would load them: a third
    // of the entry's cold import. process.moduleLoadList names the built-in modules loaded.
    const script = `await import("./src/index.ts");
      console.log(JSON.stringify(process.moduleLoadList.filter((m) => /undici|zlib|node:fs|NativeModule fs$/.test(m))));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: join(SRC, "..") },
    );
    const loaded: string[] = JSON.parse(stdout);
    expect(loaded).toContain("NativeModule fs"); // the list is there and names modules so
    expect(loaded.filter((name) => /undici|zlib/.test(name))).toStrictEqual([]);
  }, 60_000);

  it("the testing entry loads nothing at all: it runs in every runtime and framework", async () => {
    expect([...(await runtimeDependencies("testing/index.ts"))]).toStrictEqual([]);
  });

  it("the otel entry loads only @opentelemetry/api (an optional peer), and no node: module", async () => {
    const packages = [...(await runtimeDependencies("observability/otel.ts"))];
    expect(packages).toStrictEqual(["@opentelemetry/api"]);
  });

  it("the client entry loads no runtime dependency at all and no node: module", async () => {
    expect([...(await runtimeDependencies("client/index.ts"))]).toStrictEqual([]);
  });

  it("only the vitest entry loads vitest, and only the node entry loads node: modules", async () => {
    expect([...(await runtimeDependencies("testing/vitest.ts"))]).toStrictEqual(["vitest"]);
    expect([...(await runtimeDependencies("testing/node.ts"))].sort()).toStrictEqual(["node:http"]);
  });

  it("the zod 3 entry widens a zod 3 shape in zod 3, and sends a zod 4 one to the zod entry", async () => {
    const z3 = await import("zod/v3");
    const z4 = await import("zod/v4");
    const { widenOutputShape } = await import("../src/zod3.js");
    const widened = widenOutputShape(z3.object({ hits: z3.array(z3.string()) }));
    const object = z3.object(widened);
    expect(object.parse({})).toStrictEqual({});
    expect(object.safeParse({ error: { type: "rate_limited" } }).success).toBe(false);
    expect(() => widenOutputShape({ hits: z4.string() } as never)).toThrow(/zod 4.*\/zod`/);
    expect(() => widenOutputShape({ error: z3.string() })).toThrow(/already has an `error`/);
  });
});
