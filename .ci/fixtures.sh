# Sourced by the scripts that run fixture projects from the packed package (.ci/consumers.sh,
# .ci/frameworks.sh, .ci/hosts.sh): their temp dir, their one-line stages, the tarball, the pool
# that runs projects side by side, and the summary. Set PREFIX (the word each line starts with)
# and TAIL (log lines printed on failure) before sourcing.
#
#   stage NAME COMMAND...        runs COMMAND with its output in a log; one line, or the log's end
#   pack_tarball                 sets TARBALL (given, or `npm pack` into the temp dir)
#   run_lines NAME DIR PATTERN   `npm run check` in DIR on every Node line its engines allow,
#                                echoing the log lines that match PATTERN
#   run_pool JOBS FN NAME...     FN NAME for each NAME, JOBS at once, each one's lines together
#   finish                       the summary line; exits 1 if any stage failed
ROOT=$PWD
START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$PREFIX.XXXXXX")
mkdir -p "$WORK/logs"
if [[ "${KEEP:-}" == 1 ]]; then echo "$PREFIX: keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
export npm_config_cache="${npm_config_cache:-$HOME/.npm}" npm_config_prefer_offline=true
# Stages that failed, one a line (a file, so projects may run in subshells).
FAILED="$WORK/failed"
: >"$FAILED"
source .ci/node-lines.sh

log_of() { echo "$WORK/logs/${1//[^A-Za-z0-9_.-]/_}.log"; }

stage() {
  local name=$1 begin=$SECONDS log
  shift
  log=$(log_of "$name")
  if "$@" >"$log" 2>&1; then
    echo "$PREFIX: $name … ok ($((SECONDS - begin)) s)"
  else
    echo "$PREFIX: $name … FAILED ($((SECONDS - begin)) s): $*"
    tail -n "${TAIL:-80}" "$log" | sed 's/^/    /'
    echo "$name" >>"$FAILED"
    return 1
  fi
}

# The Node binaries first, so that projects running side by side never install one twice.
for line in $NODE_LINES; do stage "Node $line" node_bin "$line" || exit 1; done

pack_tarball() {
  if [[ -n "${TARBALL:-}" ]]; then
    echo "$PREFIX: using $TARBALL"
  else
    stage pack npm pack --pack-destination "$WORK" || exit 1
    TARBALL=$(ls "$WORK"/mcp-upstream-throttle-*.tgz)
  fi
}

# Installed once, run on every Node line the project's engines allow.
run_lines() {
  local name=$1 dir=$2 pattern=$3 line
  for line in $(fixture_lines "$dir"); do
    if stage "$name on Node $line" run_on "$line" npm run --silent check; then
      grep -E "$pattern" "$(log_of "$name on Node $line")" | sed 's/^[^A-Za-z@]*/    /' || true
    fi
  done
}

run_pool() {
  local jobs=$1 fn=$2 name pid
  shift 2
  declare -A running=()
  finish_one() {
    # A project whose own steps all reported still exits 0; anything else is the harness failing.
    wait -n -p pid || echo "${running[$pid]} (harness)" >>"$FAILED"
    cat "$WORK/${running[$pid]}.out"
    unset "running[$pid]"
  }
  for name in "$@"; do
    while ((${#running[@]} >= jobs)); do finish_one; done
    "$fn" "$name" >"$WORK/$name.out" 2>&1 &
    running[$!]=$name
  done
  while ((${#running[@]} > 0)); do finish_one; done
}

finish() {
  if [[ -s "$FAILED" ]]; then
    echo "$PREFIX: $(wc -l <"$FAILED") stage(s) FAILED in $((SECONDS - START)) s: $(paste -sd, "$FAILED")"
    exit 1
  fi
  echo "$PREFIX: all ok in $((SECONDS - START)) s"
}
