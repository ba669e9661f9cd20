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
PREFIX=hosts TAIL=60
source .ci/fixtures.sh
pack_tarball

# A committed lockfile pins every transitive version; the tarball is added without touching it.
install_project() {
  if [[ -f package-lock.json ]]; then
    npm ci --no-audit --no-fund && npm install --no-save --no-audit --no-fund "$TARBALL"
  else
    npm install --no-package-lock --no-audit --no-fund "$TARBALL"
  fi
}

run_project() {
  local name=$1 dir="$WORK/$1"
  cp -R "$ROOT/test/frameworks/$name" "$dir"
  # The shared server and checks, and the test a family of pinned majors shares (ai-sdk.test.mjs …).
  cp "$ROOT"/test/frameworks/*.mjs "$dir/"
  cd "$dir"
  stage "$name install" install_project || return 0
  run_lines "$name" "$dir" ": short throttle waited"
}

if [[ $# -gt 0 ]]; then
  projects=("$@")
else
  projects=()
  for dir in test/frameworks/*/; do projects+=("$(basename "$dir")"); done
fi
run_pool "${JOBS:-2}" run_project "${projects[@]}"
finish
