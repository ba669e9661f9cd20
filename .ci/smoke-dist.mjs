// After `npm run build`: the package as users import it, by name, in plain Node (no tsx).
// First the layout is one copy: every entry resolves to the same file under every condition, by
// Node's resolver (import, require, and `--conditions=module`) and by esbuild's (Node, browser
// and neutral platforms, with the "module", "import" and "require" conditions), and the packed
// file list (`npm pack --dry-run`) holds each source module in one file only, by the sources of
// the shipped source maps. A process that reached two copies would hold two of the library's
// state. Then every entry point loads and exports what the README documents. (That the main
// entry loads no optional peer is checked on the import graph by test/entry-points.test.ts.)

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const problems = [];

// Each entry names its declarations first, then one JavaScript path for every condition.
for (const [path, target] of Object.entries(manifest.exports)) {
  if (path === "./package.json") continue;
  const conditions = Object.keys(target ?? {}).join(", ");
  if (conditions !== "types, default")
    problems.push(`"exports" ${path} has the conditions ${conditions}, not types, default`);
}

/** Every entry of "exports" by the name users import, the package.json one aside. */
const specifiers = Object.keys(manifest.exports)
  .filter((path) => path !== "./package.json")
  .map((path) => (path === "." ? manifest.name : `${manifest.name}${path.slice(1)}`));

/** The file, relative to the package root, that each resolver picks for `specifier`. */
async function resolutions(specifier) {
  const relative = (path) =>
    posix.relative(ROOT, path.startsWith("file:") ? fileURLToPath(path) : path);
  const picks = {
    "node import": relative(import.meta.resolve(specifier)),
    "node require": relative(createRequire(`${ROOT}/`).resolve(specifier)),
    "node --conditions=module": relative(
      execFileSync(
        process.execPath,
        [
          "--conditions=module",
          "--input-type=module",
          "-e",
          `process.stdout.write(import.meta.resolve(${JSON.stringify(specifier)}))`,
        ],
        { cwd: ROOT, encoding: "utf8" },
      ),
    ),
  };
  for (const platform of ["node", "browser", "neutral"]) {
    for (const [kind, contents, conditions] of [
      ["import", `import ${JSON.stringify(specifier)};`, []],
      ["import, module", `import ${JSON.stringify(specifier)};`, ["module"]],
      ["require", `require(${JSON.stringify(specifier)});`, ["require"]],
    ]) {
      const result = await build({
        stdin: { contents, resolveDir: ROOT, loader: "js" },
        // The repository's tsconfig maps the package name to src/ for the tests; users have none.
        tsconfigRaw: "{}",
        bundle: true,
        write: false,
        metafile: true,
        platform,
        conditions,
        // The neutral platform reads no "main" fields unless told; "exports" is what counts.
        mainFields: platform === "neutral" ? ["module", "main"] : undefined,
        format: "esm",
        outdir: "out",
        external: [
          "zod",
          "zod/*",
          "vitest",
          "nock",
          "@opentelemetry/api",
          "@modelcontextprotocol/*",
          "node:*",
        ],
        logLevel: "silent",
      });
      const path = result.metafile.inputs["<stdin>"]?.imports[0]?.path ?? "(unresolved)";
      picks[`esbuild ${platform} (${kind})`] = path;
    }
  }
  return picks;
}

for (const specifier of specifiers) {
  const picks = await resolutions(specifier);
  const files = new Set(Object.values(picks));
  if (files.size !== 1 || !/^dist\/.+\.js$/.test([...files][0])) {
    const list = Object.entries(picks).map(([by, file]) => `    ${by}: ${file}`);
    problems.push(`${specifier} resolves to more than one file:\n${list.join("\n")}`);
  }
}

// The files `npm pack` ships (the build already ran: its scripts are skipped).
const [packed] = JSON.parse(
  execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }),
);
const paths = packed.files.map(({ path }) => path);
for (const path of paths.filter((path) => path.startsWith("dist/esm/")))
  problems.push(`the package ships a second layout: ${path}`);
for (const path of paths.filter((path) => /^src\//.test(path)))
  problems.push(`the package ships its sources: ${path}`);
// Each source module in one JavaScript file: the sources its source map names.
const shippedIn = new Map();
for (const path of paths.filter((path) => path.endsWith(".js"))) {
  if (!paths.includes(`${path}.map`)) {
    problems.push(`${path} ships without its source map`);
    continue;
  }
  const map = JSON.parse(readFileSync(`${ROOT}/${path}.map`, "utf8"));
  if (
    map.sourcesContent?.length !== map.sources.length ||
    map.sourcesContent.some((text) => typeof text !== "string")
  )
    problems.push(`${path}.map lacks the sources' content`);
  for (const source of map.sources) {
    const module = posix.normalize(posix.join(posix.dirname(path), source));
    shippedIn.set(module, [...(shippedIn.get(module) ?? []), path]);
  }
}
for (const [module, files] of shippedIn)
  if (files.length > 1) problems.push(`${module} ships ${files.length} times: ${files.join(", ")}`);

if (problems.length > 0) {
  console.error(`dist smoke test failed: the layout is not one copy\n${problems.join("\n")}`);
  process.exit(1);
}
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
console.log(
  `dist layout: ${specifiers.length} entries, each one file under every condition; ${shippedIn.size} source modules, each in one file; packed ${kB(packed.size)} (${kB(packed.unpackedSize)} unpacked), ${packed.entryCount} files`,
);

const entries = {
  "mcp-upstream-throttle": [
    "throttledFetch",
    "throttleInterceptor",
    "withUpstreamThrottle",
    "rateLimitedResult",
    "parseRateLimitedResult",
    "detectThrottle",
    "aggregateTool",
    "fanOutTool",
    "MemoryCooldownStore",
    "RedisCooldownStore",
    "UpstreamRateLimitedError",
    "EVENT_CHANNELS",
  ],
  "mcp-upstream-throttle/zod": [
    "widenOutputShape",
    "RateLimitedErrorSchema",
    "RateLimitedStructuredContentSchema",
  ],
  "mcp-upstream-throttle/zod3": [
    "widenOutputShape",
    "RateLimitedErrorSchema",
    "RateLimitedStructuredContentSchema",
  ],
  "mcp-upstream-throttle/testing": ["toBeRateLimited", "expectRateLimited", "nockRateLimited"],
  "mcp-upstream-throttle/testing/node": ["startFakeUpstream"],
  "mcp-upstream-throttle/client": [
    "readThrottle",
    "parseRateLimitedText",
    "honorThrottles",
    "throttleAwareClient",
    "throttleAwareTools",
  ],
  "mcp-upstream-throttle/otel": ["openTelemetryHook", "instrumentThrottles"],
};
const loaded = {};
const missing = [];
for (const [entry, names] of Object.entries(entries)) {
  loaded[entry] = await import(entry);
  for (const name of names) if (!(name in loaded[entry])) missing.push(`${entry}: ${name}`);
}
if (missing.length > 0) {
  console.error(`dist smoke test failed: missing ${missing.join(", ")}`);
  process.exit(1);
}
const main = loaded["mcp-upstream-throttle"];
const result = main.rateLimitedResult({ limit: "search", retryAfterSeconds: 1 });
loaded["mcp-upstream-throttle/testing"].expectRateLimited(result, {
  limit: "search",
  retryAfterSeconds: 1,
});
const host = loaded["mcp-upstream-throttle/client"].readThrottle(result);
if (host?.layer !== "tool" || host.retryAfterMs !== 1000) {
  console.error(`dist smoke test failed: readThrottle gave ${JSON.stringify(host)}`);
  process.exit(1);
}
const counts = Object.entries(loaded).map(
  ([entry, module]) => `${entry} ${Object.keys(module).length}`,
);
console.log(`dist smoke test passed: ${counts.join(", ")} exports`);
