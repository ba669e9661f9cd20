#!/usr/bin/env bash
# The packed package in the MCP server frameworks tool authors use: every project under
# test/consumers/fw-*/ is copied outside the repo with test/consumers/fw-common/harness.ts as its
# src/harness.ts, the tarball installed next to the project's pinned framework, then typechecked
# with the project's own tsc (the wrapped callbacks are not annotated) and run: the official SDK
# client calls its tools over Streamable HTTP on 127.0.0.1.
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
PREFIX=frameworks
source .ci/fixtures.sh
pack_tarball

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
  run_lines "$name" "$dir" "^$name: "
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
run_pool "${JOBS:-3}" run_fixture "${fixtures[@]}"
finish
