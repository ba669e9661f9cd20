#!/usr/bin/env bash
# The packed package in the MCP server frameworks tool authors use (issue 19 #4): every project
# under test/consumers/fw-*/ is copied outside the repo with test/consumers/fw-common/harness.ts
# as its src/harness.ts, the tarball installed next to the project's pinned framework, then
# typechecked with the project's own tsc (the wrapped callbacks are not annotated) and run: the
# official SDK client calls its tools over Streamable HTTP on 127.0.0.1.
#
#   bash .ci/frameworks.sh                      # every fixture
#   bash .ci/frameworks.sh fw-fastmcp fw-tmcp   # only these
#   KEEP=1 bash .ci/frameworks.sh               # keep the temp dir
#   JOBS=4 bash .ci/frameworks.sh               # fixtures at once (default 3)
#   NODE_LINES=24 bash .ci/frameworks.sh        # run on one Node line (default 20 22 24)
#
# Each fixture is installed and typechecked once, then run on every line of NODE_LINES that its
# package.json's engines.node allows (.ci/node-lines.sh).
#
# fw-xmcp runs `xmcp build` (rspack, ~17 s) inside its run stage; fw-mastra's install is the largest (442 packages).
# One line per stage, `frameworks: <stage> … ok (N s)`; every fixture runs even after a failure;
# exits 1 if any stage failed. One npm cache is shared by every install.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/frameworks.XXXXXX")
mkdir -p "$WORK/logs"
if [[ "${KEEP:-}" == 1 ]]; then echo "frameworks: keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
export npm_config_cache="${npm_config_cache:-$HOME/.npm}" npm_config_prefer_offline=true
FAILED="$WORK/failed"
: >"$FAILED"
source .ci/node-lines.sh

stage() {
  local name=$1 begin=$SECONDS
  shift
  local log="$WORK/logs/${name//[^A-Za-z0-9_.-]/_}.log"
  if "$@" >"$log" 2>&1; then
    echo "frameworks: $name … ok ($((SECONDS - begin)) s)"
  else
    echo "frameworks: $name … FAILED ($((SECONDS - begin)) s): $*"
    tail -n 80 "$log" | sed 's/^/    /'
    echo "$name" >>"$FAILED"
    return 1
  fi
}

for line in $NODE_LINES; do stage "Node $line" node_bin "$line" || exit 1; done
if [[ -n "${TARBALL:-}" ]]; then
  echo "frameworks: using $TARBALL"
else
  stage pack npm pack --pack-destination "$WORK" || exit 1
  TARBALL=$(ls "$WORK"/mcp-upstream-throttle-*.tgz)
fi

run_fixture() {
  local name=$1 dir="$WORK/$1"
  mkdir -p "$dir"
  (cd "$ROOT/test/consumers/$name" && tar cf - --exclude=node_modules --exclude=build .) |
    (cd "$dir" && tar xf -)
  cp "$ROOT/test/consumers/fw-common/harness.ts" "$dir/src/harness.ts"
  cd "$dir"
  stage "$name install" npm install --no-audit --no-fund "$TARBALL" || return 0
  # A type error does not stop the run: tsc still emits, so the run stage reports too.
  stage "$name typecheck" npm run --silent typecheck || true
  # Installed and typechecked once, run on every Node line the project's engines allow.
  local line
  for line in $(fixture_lines "$dir"); do
    if stage "$name run (Node $line)" run_on "$line" npm run --silent check; then
      grep -E "^$name: " "$WORK/logs/${name}_run__Node_${line}_.log" | sed 's/^/    /' || true
    fi
  done
}

if [[ $# -gt 0 ]]; then
  fixtures=("$@")
else
  fixtures=()
  for dir in test/consumers/fw-*/; do
    name=$(basename "$dir")
    [[ "$name" == fw-common ]] || fixtures+=("$name")
  done
fi
declare -A running=()
finish_one() {
  local pid
  wait -n -p pid || echo "${running[$pid]} (harness)" >>"$FAILED"
  cat "$WORK/${running[$pid]}.out"
  unset "running[$pid]"
}
for name in "${fixtures[@]}"; do
  while ((${#running[@]} >= ${JOBS:-3})); do finish_one; done
  run_fixture "$name" >"$WORK/$name.out" 2>&1 &
  running[$!]=$name
done
while ((${#running[@]} > 0)); do finish_one; done

if [[ -s "$FAILED" ]]; then
  echo "frameworks: $(wc -l <"$FAILED") stage(s) FAILED in $((SECONDS - START)) s: $(paste -sd, "$FAILED")"
  exit 1
fi
echo "frameworks: all ok in $((SECONDS - START)) s"
