// The layering rule of src/: imports run one way, entries -> adopting a whole server (adopt/,
// built on the doors) -> doors (wrappers) -> cooldown ->
// errors / contract -> signals -> untrusted -> internal, with observability beside (every layer
// above signals may report an event; observability itself reads only signals, untrusted and
// internal), and the host side (client/) built on the contract, signals, untrusted, internal and
// observability only, never the doors or the stores. No cycles between files, type-only imports
// included. Every import is read from the syntax tree with the TypeScript compiler, so
// `import type`, `export … from` and `import("…")` types all count.
//
// Run `npx tsx scripts/layers.ts` to print every import that breaks the rule and every cycle.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The layers of src/, named by their folder (the entries are the files at the top and testing/). */
export type Layer =
  | "entry"
  | "adopt"
  | "wrappers"
  | "cooldown"
  | "errors"
  | "contract"
  | "observability"
  | "signals"
  | "untrusted"
  | "internal"
  | "client";

const BELOW_COOLDOWN: Layer[] = ["errors", "contract", "observability", "signals", "untrusted"];
const BASE: Layer[] = ["signals", "untrusted", "internal"];

/** What each layer may import besides its own files. */
export const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  entry: ["adopt", "wrappers", "cooldown", ...BELOW_COOLDOWN, "internal", "client"],
  adopt: ["wrappers", "cooldown", ...BELOW_COOLDOWN, "internal"],
  wrappers: ["cooldown", ...BELOW_COOLDOWN, "internal"],
  cooldown: [...BELOW_COOLDOWN, "internal"],
  errors: ["contract", "observability", ...BASE],
  contract: ["errors", "observability", ...BASE],
  observability: BASE,
  signals: ["untrusted", "internal"],
  untrusted: ["internal"],
  internal: [],
  client: ["contract", "observability", ...BASE],
};

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(root, "src");

/** The layer of a file, from its path under src/. */
export function layerOf(file: string): Layer {
  const [top = "", ...rest] = file.split("/");
  if (rest.length === 0 || top === "testing") return "entry";
  if (top in MAY_IMPORT) return top as Layer;
  throw new Error(`src/${file} sits in no layer: add its folder to scripts/layers.ts`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The module specifier of a node that imports, of any kind (value, type, re-export, dynamic). */
function specifierOf(node: ts.Node): string | undefined {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
    return ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
    return ts.isStringLiteral(node.argument.literal) ? node.argument.literal.text : undefined;
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [first] = node.arguments;
    return first !== undefined && ts.isStringLiteral(first) ? first.text : undefined;
  }
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    const expression = node.moduleReference.expression;
    return ts.isStringLiteral(expression) ? expression.text : undefined;
  }
  return undefined;
}

/** Every relative import of every file under src/, as paths relative to src/. */
export function importGraph(src = SRC): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const path of sourceFiles(src)) {
    const text = readFileSync(path, "utf8");
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const targets = new Set<string>();
    const visit = (node: ts.Node): void => {
      const specifier = specifierOf(node);
      if (specifier?.startsWith(".")) {
        const target = resolve(dirname(path), specifier.replace(/\.js$/, ".ts"));
        targets.add(relative(src, target));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    graph.set(relative(src, path), targets);
  }
  return graph;
}

/** Every import that runs against the layers, as `from -> to`. */
export function layerViolations(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const layer = layerOf(from);
    for (const to of targets) {
      const target = layerOf(to);
      if (target !== layer && !MAY_IMPORT[layer].includes(target)) found.push(`${from} -> ${to}`);
    }
  }
  return found.sort();
}

/** The import cycles: each group of files that reach one another, sorted and joined by " <> ". */
export function importCycles(graph: Map<string, Set<string>>): string[] {
  // Tarjan's strongly connected components; a component of two or more files is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.has(file)) cycles.push(group.sort().join(" <> "));
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles.sort();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const violations = layerViolations(graph);
  const cycles = importCycles(graph);
  for (const line of violations) console.log(`layer: ${line}`);
  for (const line of cycles) console.log(`cycle: ${line}`);
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
  console.log(
    `${graph.size} files, ${edges} imports: ${violations.length} against the layers, ${cycles.length} cycles`,
  );
}
