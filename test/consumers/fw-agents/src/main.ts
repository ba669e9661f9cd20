// Cloudflare agents 0.32 in workerd: the Worker (src/worker.ts) is bundled by wrangler's
// `deploy --dry-run`, loaded into Miniflare with nodejs_compat, and called from Node by the
// SDK 1.x client over Miniflare's HTTP port.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { check, startUpstream } from "./harness.js";

const COMPATIBILITY_DATE = "2026-04-26";
const root = new URL("../../", import.meta.url);
await writeFile(
  new URL("wrangler.json", root),
  JSON.stringify({
    name: "fw-agents",
    main: "build/src/worker.js",
    compatibility_date: COMPATIBILITY_DATE,
    compatibility_flags: ["nodejs_compat"],
  }),
);
await promisify(execFile)(
  new URL("node_modules/.bin/wrangler", root).pathname,
  ["deploy", "--dry-run", "--outdir", new URL("dist", root).pathname],
  { cwd: root.pathname, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, timeout: 120_000 },
);

const upstream = await startUpstream();
const miniflare = new Miniflare({
  modules: true,
  modulesRules: [{ type: "ESModule", include: ["**/*.js"] }],
  scriptPath: new URL("dist/worker.js", root).pathname,
  compatibilityDate: COMPATIBILITY_DATE,
  compatibilityFlags: ["nodejs_compat"],
  bindings: { UPSTREAM: upstream.url },
  host: "127.0.0.1",
  port: 0,
});
try {
  const url = await miniflare.ready;
  await check("fw-agents", new URL("/mcp", url).href, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  await miniflare.dispose();
  await upstream.close();
}
