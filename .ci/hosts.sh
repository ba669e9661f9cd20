#!/usr/bin/env bash
# Agent frameworks whose dependencies conflict with the repo's (test/frameworks/README.md): the
# packed package installed next to each project's pinned dependencies in a temp dir, then the
# project's `npm run check` (strands: ~25-50 s; cf-agents, workerd through Miniflare: ~50 s, half
# of it the install). One line per stage, `hosts: <stage> … ok (N s)`; on failure the
# end of its log, and exit 1.
#
#   bash .ci/hosts.sh            # every project under test/frameworks/
#   KEEP=1 bash .ci/hosts.sh     # keep the temp dir
set -euo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hosts.XXXXXX")
mkdir -p "$WORK/logs"
if [[ "${KEEP:-}" == 1 ]]; then echo "hosts: keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
FAILED=0

stage() {
  local name=$1
  shift
  local log="$WORK/logs/${name//[^A-Za-z0-9_.-]/_}.log"
  local begin=$SECONDS
  if "$@" >"$log" 2>&1; then
    echo "hosts: $name … ok ($((SECONDS - begin)) s)"
  else
    echo "hosts: $name … FAILED ($((SECONDS - begin)) s): $*"
    tail -n 60 "$log" | sed 's/^/    /'
    FAILED=1
    return 1
  fi
}

stage pack npm pack --pack-destination "$WORK" || exit 1
TARBALL=$(ls "$WORK"/mcp-upstream-throttle-*.tgz)

for project in test/frameworks/*/; do
  name=$(basename "$project")
  dir="$WORK/$name"
  cp -R "$project" "$dir"
  cp test/frameworks/server.mjs "$dir/"
  (
    cd "$dir"
    stage "$name: npm install" npm install --no-package-lock "$TARBALL" &&
      stage "$name: check" npm run check
  ) || FAILED=1
done

if [[ $FAILED != 0 ]]; then
  echo "hosts: FAILED in $((SECONDS - START)) s"
  exit 1
fi
echo "hosts: all ok in $((SECONDS - START)) s"
