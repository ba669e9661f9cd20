#!/usr/bin/env bash
# The package as its users get it: `npm pack` (prepack builds), publint and are-the-types-wrong
# on the tarball, then every project under test/consumers/ copied to a temp dir, the tarball
# installed with a plain `npm i` next to the project's own pinned dependencies from the
# registry, typechecked with the project's own tsc, and run.
#
#   bash .ci/consumers.sh                  # everything
#   bash .ci/consumers.sh zod41 zod-mini   # only these fixtures (pack and lint still run)
#   KEEP=1 bash .ci/consumers.sh           # keep the temp dir to look into a failure
#   JOBS=1 bash .ci/consumers.sh           # one fixture at a time (default 2)
#   NODE_LINES=24 bash .ci/consumers.sh     # run on one Node line (default 20 22 24)
#
# Each fixture is installed and typechecked once, then run on every line of NODE_LINES that its
# package.json's engines.node allows (.ci/node-lines.sh).
#
# Needs the repo's own devDependencies (`npm ci`). One line per stage, `consumers: <stage> … ok`
# or `consumers: <stage> … FAILED` followed by the end of its log; every fixture runs even after
# a failure, and the run exits 1 if any stage failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tarball is packed here even when CI gives one: publint and attw lint this one.
PREFIX=consumers TARBALL=""
source .ci/fixtures.sh

if [[ ! -x node_modules/.bin/publint || ! -x node_modules/.bin/attw ]]; then
  echo "consumers: run \`npm ci\` first (publint and attw are devDependencies)" >&2
  exit 1
fi

# --- the tarball ---------------------------------------------------------------------------
pack_tarball

# publint --strict: its warnings fail too.
stage publint node_modules/.bin/publint --strict "$TARBALL" || true
# attw: every entry is checked under node10, node16 (CJS and ESM) and bundler. The one rule
# ignored is cjs-resolves-to-esm: the package is ESM only by design, and `engines` (>= 20.19)
# guarantees require(esm), so `require()` from CommonJS loads it (the cjs-require fixture
# proves it). `--profile esm-only` would also skip the node10 column, which typesVersions
# exists to serve, so it is not used.
stage attw node_modules/.bin/attw "$TARBALL" --ignore-rules cjs-resolves-to-esm || true
# `npm publish --dry-run` of that tarball: every npm warning fails it but the one a machine
# without registry credentials always gets; `publishConfig` asks for provenance, which npm only
# builds on a real publish from CI.
publish_dry_run() {
  local out
  out=$(npm publish --dry-run "$TARBALL" 2>&1) || { echo "$out"; return 1; }
  echo "$out" | tail -n 12
  if echo "$out" | grep -i "npm warn" | grep -v "requires you to be logged in"; then return 1; fi
}
stage "npm publish --dry-run" publish_dry_run || true

# --- the consumer projects -----------------------------------------------------------------
# (Called as a stage's condition, where `set -e` does not apply: each step says its own failure.)
install_fixture() {
  npm install --no-audit --no-fund "$TARBALL" || return 1
  # zod is a peer: the package must not have brought a zod of its own.
  if [[ -e node_modules/mcp-upstream-throttle/node_modules/zod ]]; then
    echo "a second zod was installed under mcp-upstream-throttle/node_modules"
    return 1
  fi
  npm ls mcp-upstream-throttle zod
}

run_fixture() {
  local name=$1
  local dir="$WORK/$name"
  mkdir -p "$dir"
  (cd "$ROOT/test/consumers/$name" && tar cf - --exclude=node_modules --exclude=build .) |
    (cd "$dir" && tar xf -)
  # The adopt-* fixtures share one harness (the upstream, the client, the diff count).
  if [[ "$name" == adopt-* && "$name" != adopt-floor ]]; then
    cp "$ROOT/test/consumers/adopt-common/harness.ts" "$dir/src/harness.ts"
  fi
  cd "$dir"
  stage "$name install" install_fixture || return 0
  if node -e 'process.exit(require("./package.json").scripts?.typecheck ? 0 : 1)'; then
    # A type error does not stop the run: tsc still emits, so the run stage reports too.
    stage "$name typecheck" npm run --silent typecheck || true
  fi
  run_lines "$name" "$dir" "^$name: "
}

if [[ $# -gt 0 ]]; then
  fixtures=("$@")
else
  fixtures=()
  # fw-* are the server frameworks, run by .ci/frameworks.sh; adopt-common is a shared file.
  for dir in test/consumers/*/; do
    name=$(basename "$dir")
    [[ "$name" == fw-* || "$name" == adopt-common ]] || fixtures+=("$name")
  done
fi
# Two fixtures at a time (JOBS): installs wait on the network and disk, typechecks on a core.
# Each fixture's lines are printed together when it ends.
run_pool "${JOBS:-2}" run_fixture "${fixtures[@]}"
finish
