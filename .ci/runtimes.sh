#!/usr/bin/env bash
# The package in the runtimes MCP servers are deployed on (issue 11). It is packed as it is
# published, installed by name into a copy of test/runtimes/fixture outside the repo (so no tsconfig
# `paths` or node_modules of the repo can stand in for it), and the same checks run in Node, Deno,
# Bun, workerd through Miniflare (no compatibility flags, then nodejs_compat; the checks and an MCP
# server in a Worker; the serverless guide's Workers as printed, their stores shared by two isolates)
# and an esbuild browser bundle. One line per stage; a failed stage prints its
# log and ends the run. Talks to 127.0.0.1 and the npm registry only.
#
# Every tool is pinned in test/runtimes/fixture/package.json and its committed lockfile. To move
# one: `npm install <tool>@<version>` in that folder, `npm install-scripts approve <tool>` if it
# brings a new install script, and commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
bridge_pid=""
redis_pid=""
cleanup() {
  [ -z "$bridge_pid" ] || kill "$bridge_pid" 2>/dev/null || true
  [ -z "$redis_pid" ] || kill "$redis_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
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
    cp docs/serverless.md "$fixture/serverless.md" &&
    echo "npm ci, then $(basename "$work"/*.tgz) by name; lockfile unchanged"
}

drive() { (cd "$fixture" && node drive.js "$@"); }

# The guide's Redis-over-HTTP store needs an Upstash REST endpoint: the tests' bridge
# (test/helpers/rest-redis-serve.ts) in front of a throwaway redis-server of this run's own (the
# guide's stages empty it between Workers, so never a shared one). Its URL and token are exported
# for those stages.
start_bridge() {
  local port=$((20000 + RANDOM % 20000))
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no >"$work/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  local redis_url="redis://127.0.0.1:$port"
  node --import tsx test/helpers/rest-redis-serve.ts "$redis_url" >"$work/bridge.env" 2>"$work/bridge.log" &
  bridge_pid=$!
  for _ in $(seq 100); do [ "$(wc -l <"$work/bridge.env")" -ge 2 ] && break; sleep 0.1; done
  [ "$(wc -l <"$work/bridge.env")" -ge 2 ] || { cat "$work/bridge.log"; return 1; }
  echo "REST bridge in front of $redis_url"
}

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
stage "Upstash REST bridge on 127.0.0.1" start_bridge
set -a
# shellcheck disable=SC1091
. "$work/bridge.env"
set +a
stage "workerd (no flags): the serverless guide's Workers, MCP client outside" drive workerd-guide no-flags
stage "workerd (nodejs_compat): the serverless guide's Workers, MCP client outside" drive workerd-guide nodejs_compat
stage "esbuild --platform=browser" drive browser
echo "runtimes: $passed stages ok in $((SECONDS - started)) s"
