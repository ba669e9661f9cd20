#!/usr/bin/env bash
# The host (agent) frameworks, from the packed package (test/frameworks/README.md): each project
# under test/frameworks/ copied to a temp dir with server.mjs (the shared MCP server) and
# checks.mjs (the checks every project makes), installed from its committed lockfile (`npm ci`)
# with the tarball beside it, then its `npm run check` on every Node line of NODE_LINES that the
# project's `engines.node` allows (installed once, run once per line). One line per stage,
# `hosts: <stage> … ok (N s)`, and the line each check prints; on failure the end of its log.
# Every project runs even after a failure; exits 1 if any stage failed.
#
#   bash .ci/hosts.sh                      # every project
#   bash .ci/hosts.sh ai-sdk-7 mastra-1    # only these
#   KEEP=1 bash .ci/hosts.sh               # keep the temp dir
#   JOBS=1 bash .ci/hosts.sh               # projects at once (default 2)
#   NODE_LINES=24 bash .ci/hosts.sh        # one Node line
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hosts.XXXXXX")
mkdir -p "$WORK/logs"
if [[ "${KEEP:-}" == 1 ]]; then echo "hosts: keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
export npm_config_cache="${npm_config_cache:-$HOME/.npm}" npm_config_prefer_offline=true
source .ci/node-lines.sh
FAILED="$WORK/failed"
: >"$FAILED"

stage() {
  local name=$1 begin=$SECONDS
  shift
  local log="$WORK/logs/${name//[^A-Za-z0-9_.-]/_}.log"
  if "$@" >"$log" 2>&1; then
    echo "hosts: $name … ok ($((SECONDS - begin)) s)"
  else
    echo "hosts: $name … FAILED ($((SECONDS - begin)) s): $*"
    tail -n 60 "$log" | sed 's/^/    /'
    echo "$name" >>"$FAILED"
    return 1
  fi
}

# The Node binaries first, so that projects running side by side never install one twice.
for line in $NODE_LINES; do stage "Node $line" node_bin "$line" || exit 1; done
if [[ -n "${TARBALL:-}" ]]; then
  echo "hosts: using $TARBALL"
else
  stage pack npm pack --pack-destination "$WORK" || exit 1
  TARBALL=$(ls "$WORK"/mcp-upstream-throttle-*.tgz)
fi

# A committed lockfile pins every transitive version; the tarball is added without touching it.
install_project() {
  if [[ -f package-lock.json ]]; then
    npm ci --no-audit --no-fund && npm install --no-save --no-audit --no-fund "$TARBALL"
  else
    npm install --no-package-lock --no-audit --no-fund "$TARBALL"
  fi
}

run_project() {
  local name=$1 dir="$WORK/$1" line
  cp -R "$ROOT/test/frameworks/$name" "$dir"
  cp "$ROOT/test/frameworks/server.mjs" "$ROOT/test/frameworks/checks.mjs" "$dir/"
  cd "$dir"
  stage "$name install" install_project || return 0
  for line in $(fixture_lines "$dir"); do
    if stage "$name on Node $line" run_on "$line" npm run --silent check; then
      grep -E ": short throttle waited" "$WORK/logs/${name//[^A-Za-z0-9_.-]/_}_on_Node_${line}.log" |
        sed 's/^[^A-Za-z@]*/    /' || true
    fi
  done
}

if [[ $# -gt 0 ]]; then
  projects=("$@")
else
  projects=()
  for dir in test/frameworks/*/; do projects+=("$(basename "$dir")"); done
fi
declare -A running=()
finish_one() {
  local pid
  wait -n -p pid || echo "${running[$pid]} (harness)" >>"$FAILED"
  cat "$WORK/${running[$pid]}.out"
  unset "running[$pid]"
}
for name in "${projects[@]}"; do
  while ((${#running[@]} >= ${JOBS:-2})); do finish_one; done
  run_project "$name" >"$WORK/$name.out" 2>&1 &
  running[$!]=$name
done
while ((${#running[@]} > 0)); do finish_one; done

if [[ -s "$FAILED" ]]; then
  echo "hosts: $(wc -l <"$FAILED") stage(s) FAILED in $((SECONDS - START)) s: $(paste -sd, "$FAILED")"
  exit 1
fi
echo "hosts: all ok in $((SECONDS - START)) s"
