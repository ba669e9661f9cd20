#!/usr/bin/env bash
# The package in the runtimes MCP servers are deployed on (issue 11). It is packed as it is
# published, installed by name into a copy of test/runtimes/fixture outside the repo (so no tsconfig
# `paths` or node_modules of the repo can stand in for it), and the same checks run in Node, Deno,
# Bun, workerd through Miniflare (no compatibility flags, then nodejs_compat; the checks and an MCP
# server in a Worker) and an esbuild browser bundle. One line per stage; a failed stage prints its
# log and ends the run. Talks to 127.0.0.1 and the npm registry only.
#
# Every tool is pinned in test/runtimes/fixture/package.json and its committed lockfile. To move
# one: `npm install <tool>@<version>` in that folder, `npm install-scripts approve <tool>` if it
# brings a new install script, and commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fixture="$work/fixture"
started=$SECONDS
passed=0

# stage NAME COMMAND...: runs COMMAND, its output in a log; prints one line with the log's last.
stage() {
  local name="$1" start=$SECONDS log="$work/stage.log"
  shift
  if "$@" >"$log" 2>&1; then
    echo "runtimes: $name … ok ($(tail -n 1 "$log"), $((SECONDS - start)) s)"
    passed=$((passed + 1))
  else
    echo "runtimes: $name … FAILED"
    sed 's/^/    /' "$log"
    exit 1
  fi
}

# The fixture as a user's project: its committed lockfile (`npm ci`, whose install scripts must
# all be covered by its `allowScripts`), then the tarball, which must leave the lockfile alone.
install_fixture() {
  tar -C test/runtimes -c --exclude=node_modules --exclude=.build fixture | tar -C "$work" -x &&
    (cd "$fixture" && npm ci --strict-allow-scripts --no-audit --no-fund) &&
    (cd "$fixture" && npm install --no-save --strict-allow-scripts --no-audit --no-fund "$work"/*.tgz) &&
    cmp test/runtimes/fixture/package-lock.json "$fixture/package-lock.json" &&
    echo "npm ci, then $(basename "$work"/*.tgz) by name; lockfile unchanged"
}

drive() { (cd "$fixture" && node drive.js "$@"); }

# The package as published: `npm pack` runs `prepack`, which builds dist/ with the repo's tsc.
pack() {
  { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm pack --pack-destination "$work"
}

stage "npm pack (prepack builds)" pack
stage "install into the fixture" install_fixture
stage "Node 20" drive node
stage "Deno" drive deno
stage "Bun" drive bun
stage "Bun: throttleInterceptor with undici" drive bun-undici
stage "wrangler deploy --dry-run (no flags)" drive wrangler no-flags
stage "wrangler deploy --dry-run (nodejs_compat)" drive wrangler nodejs_compat
stage "workerd (no flags)" drive workerd no-flags
stage "workerd (no flags): MCP server, client outside" drive workerd-mcp no-flags
stage "workerd (nodejs_compat)" drive workerd nodejs_compat
stage "workerd (nodejs_compat): MCP server, client outside" drive workerd-mcp nodejs_compat
stage "workerd (no flags): cooldown in a Durable Object, two isolates" drive workerd-cooldown no-flags
stage "workerd (nodejs_compat): cooldown in a Durable Object, two isolates" drive workerd-cooldown nodejs_compat
stage "esbuild --platform=browser" drive browser
echo "runtimes: $passed stages ok in $((SECONDS - started)) s"
