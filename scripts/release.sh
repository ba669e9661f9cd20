#!/usr/bin/env bash
# Cuts a release the same way every time: checks, bumps, tags and packs. It never publishes:
# it prints the `npm publish` line for the tarball it made, to run by hand after a look.
#
#   bash scripts/release.sh 0.3.0            # on a clean main whose CHANGELOG has "## [0.3.0] - <today>"
#   DRY_RUN=1 bash scripts/release.sh 0.3.0  # every check and the pack, no commit and no tag
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/release.sh X.Y.Z}
today=$(date -u +%F)
fail() { echo "release: $*" >&2; exit 1; }

[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "'$version' is not X.Y.Z"
[[ -z "$(git status --porcelain)" ]] || fail "the work tree is not clean"
[[ "$(git rev-parse --abbrev-ref HEAD)" == main ]] || fail "not on main"
git rev-parse -q --verify "refs/tags/v$version" >/dev/null && fail "tag v$version exists"
grep -q "^## \[$version\] - $today\$" CHANGELOG.md ||
  fail "CHANGELOG.md has no '## [$version] - $today' section: write it first"
grep -q "^\[$version\]: " CHANGELOG.md || fail "CHANGELOG.md has no compare link for [$version]"

npm version "$version" --no-git-tag-version --allow-same-version >/dev/null
npm test
tarball=$(npm pack --silent)
if [[ "${DRY_RUN:-}" == 1 ]]; then
  git checkout -- package.json package-lock.json
  echo "release: dry run ok, $tarball packed; nothing committed or tagged"
  exit 0
fi
git commit -qam "Release $version"
git tag -a "v$version" -m "mcp-upstream-throttle $version"
echo "release: v$version committed and tagged; $tarball packed."
echo "next: git push --follow-tags && npm publish $tarball"
