#!/usr/bin/env bash
# The shared cooldown under faults, short: real redis-server processes on ports the OS gives (and
# a master, its replica and a sentinel, `redis-server <conf> --sentinel`, for the failover row),
# replica processes on ioredis and node-redis, every fault in turn (SIGSTOP, kill -9, restart
# empty, CLIENT PAUSE, a loopback proxy that delays under and over the store's 200 ms command
# timeout, freezes, blackholes the subscribers and resets, repeated resets, maxmemory with
# eviction and full under noeviction, FLUSHALL, a replica started with a wrong clock then
# corrected, a clock step, a PUBLISH flood, a replica killed mid-flight, a Sentinel failover).
# Each row is printed as it completes; every process the suite started is killed however it
# ends. It fails on what load cannot change: a wrong lock-out (a cooldown answer no throttle
# accounts for), a non-throttle error, a replica alive after close() + quit(), a client whose
# rows could not run. The timing goals (answers later than 250 ms after a penalty, calls into
# penalties after a fault against the baseline, views live within 2 s) are printed in the
# timing-goal column, not enforced: they depend on the machine's load. Needs only redis-server.
# Loopback only, ~4 min.
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
