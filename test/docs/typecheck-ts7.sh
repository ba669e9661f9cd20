#!/usr/bin/env bash
# The docs' ```ts blocks under TypeScript 7 as well as the repo's TypeScript 5: installs the
# compiler (TS7_VERSION, default 7.0.2) into a temporary folder, never into the repo, and runs
# test/docs/typecheck-ts7.ts with its tsc (the repo's options, then with the DOM library), then
# with the repo's tsc with the DOM library (`npm test` checks the repo's options). Talks to the
# npm registry only.
#   bash test/docs/typecheck-ts7.sh            # or TS7_VERSION=7.1.0-dev.… bash …
set -euo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
version="${TS7_VERSION:-7.0.2}"
echo '{ "private": true }' >"$work/package.json"
(cd "$work" && npm install --no-audit --no-fund --no-save "typescript@$version" >/dev/null)
echo "docs typecheck: $("$work/node_modules/.bin/tsc" --version)"
npx tsx test/docs/typecheck-ts7.ts "$work/node_modules/.bin/tsc" repo dom
echo "docs typecheck: $(npx tsc --version) (the repo's)"
npx tsx test/docs/typecheck-ts7.ts "$(pwd)/node_modules/.bin/tsc" dom
