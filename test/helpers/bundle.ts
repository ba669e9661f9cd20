// A test's child-process script, bundled once with esbuild (its packages left to node_modules)
// and started with plain node: a `--import tsx` start compiles the same files again in every
// child, which cost the stdio tests about a second a start.

import { mkdir, rename, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { threadId } from "node:worker_threads";
import { build } from "esbuild";

const built = new Map<string, Promise<string>>();

/**
 * The path of `source` (a .ts file URL) bundled under test/.tmp/bundles/, built once per test
 * worker. Workers bundling the same script at once each write their own file and rename it into
 * place, so a child never starts from a half-written bundle.
 */
export function bundledScript(source: URL): Promise<string> {
  let path = built.get(source.href);
  if (path === undefined) {
    path = bundle(fileURLToPath(source));
    built.set(source.href, path);
  }
  return path;
}

async function bundle(entry: string): Promise<string> {
  const name = entry.replace(/^.*\/test\//, "").replace(/[/.]/g, "-");
  const dir = fileURLToPath(new URL("../.tmp/bundles/", import.meta.url));
  const outfile = `${dir}${name}.mjs`;
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  await mkdir(dir, { recursive: true });
  const partial = `${outfile}.${process.pid}-${threadId}`;
  await writeFile(partial, code);
  await rename(partial, outfile);
  return outfile;
}
