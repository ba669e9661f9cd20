// Builds dist/ in two layouts of the same code, both ES modules, neither minified (a stack trace
// reads as the source does), comments left out (they are written for this repository):
// - dist/<entry>.js, what Node and the other runtimes load: one file per entry of package.json
//   "exports" (the code each entry reaches, bundled by esbuild) and the chunks the entries share,
//   so a cold import reads a few files instead of sixty and each module stays one copy shared
//   between entries (the default cooldown store is one per process);
// - dist/esm/**, what bundlers load (the "module" condition): one file per source module, so a
//   bundler drops every module a user's imports do not reach ("sideEffects").
// Dependencies stay imports. Declarations come from tsc (tsconfig.build.json), one .d.ts per
// source file.

import { readdir, readFile, writeFile } from "node:fs/promises";
import { build } from "esbuild";
import { pointers } from "./shipped-comments.mjs";

const root = new URL("..", import.meta.url);

/** Each entry's source, from the "default" path of each export: ./dist/x/y.js <- src/x/y.ts. */
async function entryPoints() {
  const manifest = JSON.parse(await readFile(new URL("package.json", root), "utf8"));
  const entries = {};
  for (const target of Object.values(manifest.exports)) {
    const path = typeof target === "object" ? target.default : undefined;
    if (typeof path !== "string" || !path.startsWith("./dist/")) continue;
    const name = path.slice("./dist/".length, -".js".length);
    entries[name] = `src/${name}.ts`;
  }
  return entries;
}

/** Every source module under src/, for the per-module layout. */
async function sourceModules() {
  const names = await readdir(new URL("src", root), { recursive: true });
  return names.filter((name) => name.endsWith(".ts")).map((name) => `src/${name}`);
}

const common = {
  absWorkingDir: new URL(".", root).pathname,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
};

await build({ ...common, entryPoints: await sourceModules(), outbase: "src", outdir: "dist/esm" });

const result = await build({
  ...common,
  entryPoints: await entryPoints(),
  outdir: "dist",
  bundle: true,
  splitting: true,
  packages: "external",
  chunkNames: "chunks/[name]-[hash]",
  metafile: true,
});

// esbuild marks where each module starts with a `// src/….ts` line: a path users do not have.
for (const output of Object.keys(result.metafile.outputs)) {
  const file = new URL(output, root);
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace(/^\/\/ src\/\S+\.ts\n/gm, ""));
}

// The comments esbuild keeps (those inside functions) ship: they may point to URLs, never to a
// file of this repository or an issue.
const found = await pointers("dist", /\.js$/);
if (found.length > 0) {
  throw new Error(`shipped comments name what users do not have:\n${found.join("\n")}`);
}
