#!/usr/bin/env bash
# The shared cooldown under faults, short: real redis-server processes on 6410-6411 (and a
# master, its replica and a redis-sentinel on 6420, 6421 and 26420 for the failover row), replica
# processes on ioredis and node-redis, every fault in turn (SIGSTOP, kill -9, restart empty,
# CLIENT PAUSE, a loopback proxy that delays, freezes, blackholes the subscribers and resets,
# repeated resets, maxmemory with eviction and full under noeviction, FLUSHALL, a replica
# started with a wrong clock then corrected, a clock step, a PUBLISH flood, a replica killed
# mid-flight, a Sentinel failover). It fails on a wrong lock-out, a non-throttle error, or a
# replica that stays alive after close() + quit(); the goal column (calls into penalties after
# a fault against the baseline, views live within 2 s) is printed, not enforced: it depends on
# the machine's load. Loopback only, ~4 min.
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
