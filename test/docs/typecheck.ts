// `npm test`'s typecheck: the program of tsc -p tsconfig.json (src, the tests, the type tests,
// the examples, the bench), with the docs' ```ts blocks added to it as modules of their own: the
// TSDoc's of what the published entries reach, the README's and the guides'. One program instead
// of two, since parsing and checking the libraries' declarations is what costs and both need
// them. It prints the diagnostics as tsc does, writes what it found of the blocks to the file
// named by its argument (the docs test reads it), and exits 1 on any error.

import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import ts from "typescript";
import {
  type BlocksVerdict,
  entries,
  errorsIn,
  pageBlocks,
  root,
  sourcesOf,
  tsdocBlocks,
  writeBlocks,
} from "./typecheck-blocks.js";

const verdictFile = process.argv[2];

/** A compiler host that parses each file once, for the two programs built here. */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, ...rest) => {
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile.call(host, fileName, ...rest));
    return parsed.get(fileName);
  };
  return host;
}

/** The TSDoc's blocks of the source the entries reach, as TypeDoc documents it. */
async function reachedBlocks(
  options: ts.CompilerOptions,
  host: ts.CompilerHost,
): Promise<Map<string, string>> {
  // A program of its own, dropped once read: its files' parse stays in the host for the next.
  return tsdocBlocks(sourcesOf(ts.createProgram(await entries(), options, host)));
}

async function typecheck(): Promise<{
  diagnostics: readonly ts.Diagnostic[];
  verdict: BlocksVerdict;
}> {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  });
  if (config === undefined) throw new Error("tsconfig.json could not be read");
  const host = cachingHost(config.options);
  const tsdoc = await reachedBlocks(config.options, host);
  const docs = await pageBlocks();
  const tsdocFiles = await writeBlocks("test/.tmp/typecheck/tsdoc", tsdoc);
  const docsFiles = await writeBlocks("test/.tmp/typecheck/docs", docs);
  const program = ts.createProgram({
    rootNames: [...config.fileNames, ...tsdocFiles, ...docsFiles],
    options: config.options,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  return {
    diagnostics: ts.getPreEmitDiagnostics(program),
    verdict: {
      tsdoc: { blocks: Object.fromEntries(tsdoc), errors: errorsIn(program, tsdocFiles) },
      docs: { blocks: Object.fromEntries(docs), errors: errorsIn(program, docsFiles) },
    },
  };
}

/** Writes `verdict` whole (a reader waiting for the file never sees half of it). */
async function write(verdict: BlocksVerdict): Promise<void> {
  if (verdictFile === undefined) return;
  await mkdir(dirname(verdictFile), { recursive: true });
  await writeFile(`${verdictFile}.part`, JSON.stringify(verdict));
  await rename(`${verdictFile}.part`, verdictFile);
}

try {
  const { diagnostics, verdict } = await typecheck();
  await write(verdict);
  process.stdout.write(
    ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    }),
  );
  process.exitCode = diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error) ? 1 : 0;
} catch (error) {
  const none = { blocks: {}, errors: "" };
  await write({ tsdoc: none, docs: none, failed: String(error) });
  throw error;
}
