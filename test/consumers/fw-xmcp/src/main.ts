// xmcp 1.1: file-based tools (src/tools/*.ts) bundled by `xmcp build` (@xmcp-dev/compiler,
// rspack) into dist/http.js, its own HTTP server. This builds it for a free port (the port is
// built in), starts the upstream, runs the built server with the upstream's URL, and makes the
// harness's checks against it.
import { spawn, spawnSync } from "node:child_process";
import { check, freePort, startUpstream } from "./harness.js";

const port = await freePort();
const started = Date.now();
const build = spawnSync("npx", ["xmcp", "build"], {
  env: { ...process.env, XMCP_PORT: String(port) },
  stdio: ["ignore", "inherit", "inherit"],
});
if (build.status !== 0) throw new Error(`xmcp build exited with ${build.status}`);
console.log(`fw-xmcp: xmcp build: ${((Date.now() - started) / 1000).toFixed(1)} s`);

const upstream = await startUpstream();
const server = spawn(process.execPath, ["dist/http.js"], {
  env: { ...process.env, PORT: String(port), UPSTREAM_URL: upstream.url },
  stdio: ["ignore", "inherit", "inherit"],
});
const url = `http://127.0.0.1:${port}/mcp`;
try {
  // Ready when it answers HTTP at all.
  for (let attempt = 0; ; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`dist/http.js exited with ${server.exitCode}`);
    const answered = await fetch(url, { method: "GET" }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (attempt > 100) throw new Error("dist/http.js did not listen within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await check("fw-xmcp", url, upstream, {
    tools: { plain: "structuredContent", typed: "meta" },
    cooldownTool: "cooled",
  });
} finally {
  server.kill();
  await upstream.close();
}
