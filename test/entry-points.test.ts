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

/** The values an entry exports (what runs), not its `export type` names. */
async function runtimeNames(entry: string): Promise<string[]> {
  const path = join(SRC, entry);
  const file = ts.createSourceFile(path, await readFile(path, "utf8"), ts.ScriptTarget.Latest);
  return file.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly) return [];
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) return [`* from ${entry}`];
    return clause.elements.filter((element) => !element.isTypeOnly).map((e) => e.name.text);
  });
}

/** Every entry of package.json "exports", as its source file. */
const ENTRIES = [
  "index.ts",
  "zod.ts",
  "zod3.ts",
  "client/index.ts",
  "testing/index.ts",
  "testing/vitest.ts",
  "testing/node.ts",
  "observability/otel.ts",
  "cloudflare.ts",
];

/**
 * The types a user would have to reach through `Parameters<…>` or `ReturnType<…>`: each type of
 * this package that a parameter or a declared result of an exported function or class names,
 * and the entry that exports the call does not; and each parameter typed inline.
 */
function unnamedTypes(): string[] {
  const program = ts.createProgram(
    ENTRIES.map((entry) => join(SRC, entry)),
    {
      strict: true,
      exactOptionalPropertyTypes: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    },
  );
  const checker = program.getTypeChecker();
  const resolved = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const found: string[] = [];
  for (const entry of ENTRIES) {
    const source = program.getSourceFile(join(SRC, entry));
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`no module for ${entry}`);
    const exports = checker.getExportsOfModule(module);
    const exported = new Set(exports.map(resolved));
    const check = (where: string, node: ts.TypeNode | undefined, inlineIsUnnamed: boolean) => {
      if (node === undefined) return;
      if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) {
        for (const part of node.types) check(where, part, false);
        return;
      }
      if (ts.isTypeLiteralNode(node)) {
        if (inlineIsUnnamed) found.push(`${entry}: ${where} is typed inline`);
        return;
      }
      if (!ts.isTypeReferenceNode(node)) return;
      const named = checker.getSymbolAtLocation(node.typeName);
      if (named === undefined) return;
      const symbol = resolved(named);
      if (symbol.flags & ts.SymbolFlags.TypeParameter) return;
      const declared = symbol.declarations?.[0]?.getSourceFile().fileName ?? "";
      if (declared.startsWith(SRC) && !exported.has(symbol))
        found.push(`${entry}: ${where} is ${symbol.name}, not exported`);
    };
    for (const name of exports) {
      const symbol = resolved(name);
      const isClass = (symbol.flags & ts.SymbolFlags.Class) !== 0;
      if (!isClass && !(symbol.flags & ts.SymbolFlags.Function)) continue;
      const type = checker.getTypeOfSymbol(symbol);
      const signatures = isClass ? type.getConstructSignatures() : type.getCallSignatures();
      for (const signature of signatures) {
        const declaration = signature.getDeclaration();
        for (const parameter of declaration.parameters ?? []) {
          if (parameter.name.getText() === "this") continue;
          const where = `${name.name}(${parameter.name.getText()})`;
          check(where, parameter.type, true);
        }
        if (!isClass) check(`${name.name}()'s result`, declaration.type, false);
      }
    }
  }
  return [...new Set(found)];
}

describe("entry points", () => {
  it("the main entry runs at most 30 names: design §5's calls, classes and constants", async () => {
    const names = await runtimeNames("index.ts");
    expect(names.sort()).toStrictEqual([
      "DEFAULT_RATE_LIMITED_MESSAGE",
      "EVENT_CHANNELS",
      "FanOutAbortedError",
      "HttpRedisCooldownStore",
      "MemoryCooldownStore",
      "RATE_LIMITED_META_KEY",
      "RedisCooldownStore",
      "UpstreamRateLimitedError",
      "aggregateTool",
      "detectThrottle",
      "fanOutTool",
      "isRateLimitedResult",
      "isUpstreamRateLimitedError",
      "parseRateLimitedResult",
      "parseRetryAfter",
      "rateLimitedResult",
      "sdkFetch",
      "throttleAxios",
      "throttleGlobalFetch",
      "throttleInterceptor",
      "throttleServer",
      "throttledFetch",
      "throttledTool",
      "toUpstreamRateLimitedError",
      "withUpstreamThrottle",
    ]);
    expect(names.length).toBeLessThanOrEqual(30);
  });

  it("every exported call's options and result types are exported by name beside it", () => {
    expect(unnamedTypes()).toStrictEqual([]);
  }, 120_000);

  it("the main entry is a surface to read in one sitting: hand-picked, at most 70 names with the types", async () => {
    // The values are counted above; the rest are the types of their options and results.
    const names = await exportedNames("index.ts");
    expect(names.filter((name) => name.startsWith("*"))).toStrictEqual([]);
    expect(names.length).toBeGreaterThan(20);
    expect(names.length).toBeLessThanOrEqual(70);
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
