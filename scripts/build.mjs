// Builds dist/ in one layout, what every runtime and every bundler loads alike (package.json
// "exports" names one JavaScript file per entry for every condition), so that a process that
// reaches the package by two roads still holds one copy of each module and of its state (the
// installed switch, the per-process store and partition key, the call scope):
// - dist/<entry>.js: one file per entry of "exports", the code only that entry reaches;
// - dist/chunks/*.js: the code the entries share, split where a user's imports part ways (below),
//   so that a bundler drops the chunks a user's imports do not reach ("sideEffects"), and Node
//   reads 18 files on a cold import of the main entry instead of one per source module.
// ES modules, not minified (a stack trace reads as the source does), comments left out (they are
// written for this repository); each file has its source map, with the sources in it, so that a
// stack trace under `--enable-source-maps` or a debugger shows the TypeScript without src/
// shipping. Dependencies stay imports. Declarations come from tsc (tsconfig.build.json), one
// .d.ts per source file.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { build } from "esbuild";
import { pointers } from "./shipped-comments.mjs";

const root = new URL("..", import.meta.url);
const rootPath = new URL(".", root).pathname;

// The modules a user imports alone, where chunks split: esbuild puts the code that the same set
// of entries reaches in one chunk, so each seam (an entry point whose own file is not written)
// parts the chunks along what it reaches, and a bundle of one of them carries what it reaches
// and no more. Without seams, all that only the main entry reaches is one file, and a bundle of
// `throttledFetch` alone carries every other wrapper's code too (95 kB instead of 75). These five
// bring every bundle bench/weight.ts makes to what one file per module gives, in 18 files for the
// main entry's cold import (115 with one file per module, twice ky's time; 42 with every module
// the main entry re-exports from as a seam). A seam that is gone fails the build.
const SEAMS = [
  "src/wrappers/fetch.ts",
  "src/wrappers/handler.ts",
  "src/contract/result.ts",
  "src/signals/detect.ts",
  "src/cooldown/redis.ts",
];
// Where the seams' own outputs go: they are entries only to split the chunks, nothing imports
// them, and they are not written.
const SEAM_DIR = "seams/";

/** Each entry's source, from the JavaScript path of each export: ./dist/x/y.js <- src/x/y.ts. */
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

/** The seams as entry points; a seam that names no module fails the build. */
async function seamPoints() {
  const seams = {};
  for (const seam of SEAMS) {
    await readFile(new URL(seam, root)).catch(() => {
      throw new Error(`build: the seam ${seam} names no module; update SEAMS`);
    });
    seams[`${SEAM_DIR}${seam.slice("src/".length, -".ts".length)}`] = seam;
  }
  return seams;
}

const result = await build({
  absWorkingDir: rootPath,
  entryPoints: { ...(await entryPoints()), ...(await seamPoints()) },
  outdir: "dist",
  format: "esm",
  platform: "neutral",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
  bundle: true,
  splitting: true,
  packages: "external",
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  sourcesContent: true,
  metafile: true,
  write: false,
});

const seamOutputs = new Set(
  Object.keys(result.metafile.outputs).filter((output) => output.startsWith(`dist/${SEAM_DIR}`)),
);
for (const [output, { imports }] of Object.entries(result.metafile.outputs)) {
  const reached = imports.find(({ path }) => seamOutputs.has(path));
  if (reached && !seamOutputs.has(output)) {
    throw new Error(`build: ${output} imports the seam ${reached.path}, which is not shipped`);
  }
}

for (const file of result.outputFiles) {
  const output = relative(rootPath, file.path);
  if (seamOutputs.has(output) || seamOutputs.has(output.replace(/\.map$/, ""))) continue;
  // esbuild marks where each module starts with a `// src/….ts` line: a path users do not have.
  // The line is emptied, not removed, so that the source map's lines still match.
  const text = output.endsWith(".js") ? file.text.replace(/^\/\/ src\/\S+\.ts$/gm, "") : file.text;
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, text);
}

// The comments esbuild keeps (those inside functions) ship: they may point to URLs, never to a
// file of this repository or an issue.
const found = await pointers("dist", /\.js$/);
if (found.length > 0) {
  throw new Error(`shipped comments name what users do not have:\n${found.join("\n")}`);
}
