#!/usr/bin/env bash
# The shared cooldown under faults (issue 18), short: real redis-server processes on 6410-6411,
# replica processes on ioredis and node-redis, every fault in turn (SIGSTOP, kill -9, restart
# empty, CLIENT PAUSE, a loopback proxy that delays, freezes, blackholes the subscribers and
# resets, maxmemory with eviction, a clock step in one replica). It fails on a wrong lock-out, a
# non-throttle error, or a replica that stays alive after close() + quit(). Loopback only, ~2 min.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$SECONDS
if npm run --silent faults -- --short >"$log" 2>&1; then
  echo "faults: short fault suite … ok ($((SECONDS - start)) s)"
  grep '^|' "$log" | sed 's/^/    /'
else
  echo "faults: short fault suite … FAILED ($((SECONDS - start)) s)"
  tail -n 60 "$log" | sed 's/^/    /'
  exit 1
fi
