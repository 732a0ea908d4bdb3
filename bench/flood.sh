#!/usr/bin/env bash
# Verify under a flood of made-up keys (well-formed, valid checksum, not ours: each one a database lookup), measured in
# one run against a real PostgreSQL server process and the service's jar, all on loopback. Real traffic (1,000 known
# keys, cached, from client 203.0.113.1) runs alone, then beside a flood of fresh keys from client 203.0.113.2, first
# with the per-address budget of lookups that miss (the default, 100 a minute), then with it switched off
# (kvportal.limits.key-misses-per-address=0, today's behaviour). Clients are told apart by X-Forwarded-For, which the
# service believes from loopback. Prints real traffic's req/s, p50 and p99 (wrk) per case, and the flood's.
# Usage: bench/flood.sh [seconds per case, default 8] [connections per client, default 8]
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), BENCH_PORT (default 18591), BENCH_PG_PORT (default 18560),
#   FLOOD_KEYS (made-up keys generated, default 300000).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-8}
CONNECTIONS=${2:-8}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${BENCH_PG_PORT:-18560}
PORT=${BENCH_PORT:-18591}
FLOOD_KEYS=${FLOOD_KEYS:-300000}
BASE=http://127.0.0.1:$PORT

command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
[ -x "$PGBIN/postgres" ] || { echo "PostgreSQL binaries not found in $PGBIN (set PGBIN)" >&2; exit 1; }
source bench/lib.sh
find_jar

DATA=$(mktemp -d)
chmod 755 "$DATA"
KEYS_DIR=$DATA
PID=
cleanup() {
  [ -n "$PID" ] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

start() { # start [service arguments]: the service on PORT, 1 GB heap
  launch "$PORT" "$DATA/service.log" -XX:+UseG1GC -Xms1g -Xmx1g -- "$@"
  PID=$!
  await_ready "$PORT" "$DATA/service.log"
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

real() { # real FILE: the real client's keys from 203.0.113.1
  FORWARDED_FOR=203.0.113.1 THREADS=2 KEYS=$KEYS_DIR/real.keys \
    wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency -s bench/verify-keys.lua "$BASE" >"$1"
}
flood() { # flood FILE: fresh made-up keys from 203.0.113.2, each once (ORDER=seq)
  FORWARDED_FOR=203.0.113.2 THREADS=2 ORDER=seq KEYS=$KEYS_DIR/flood.keys \
    wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency -s bench/verify-keys.lua "$BASE" >"$1"
}
line() { # line NAME FILE
  printf '%-42s %9s req/s  p50 %8s  p99 %8s  non-2xx %s\n' "$1" "$(awk '/Requests\/sec/{print $2}' "$2")" \
    "$(awk '$1=="50%"{print $2}' "$2")" "$(awk '$1=="99%"{print $2}' "$2")" "$(awk '/Non-2xx/{print $NF}' "$2")"
}
xacts() { "${PSQL[@]}" -d kvbench -c "select xact_commit + xact_rollback from pg_stat_database where datname = 'kvbench'"; }

echo "Making 1,000 real keys and $FLOOD_KEYS made-up ones..."
make_keys "$FLOOD_KEYS" flood   # never inserted: unknown to the service
echo "wrk: 2 threads, $CONNECTIONS connections per client, ${SECONDS_PER_CASE}s per case; $(nproc) cores shared by wrk, the service and PostgreSQL"
for budget in on off; do
  if [ "$budget" = on ]; then start; else start --kvportal.limits.key-misses-per-address=0; fi
  if [ -z "${ORG:-}" ]; then bench_account; keys 1000 real; fi
  # warm: every real key in memory (ORDER=seq presents each one), and the JIT
  FORWARDED_FOR=203.0.113.1 THREADS=2 ORDER=seq KEYS=$KEYS_DIR/real.keys \
    wrk -t2 -c"$CONNECTIONS" -d10s -s bench/verify-keys.lua "$BASE" >/dev/null
  real "$DATA/alone-$budget.txt"
  line "budget $budget: real traffic alone" "$DATA/alone-$budget.txt"
  commits=$(xacts)
  flood "$DATA/flood-$budget.txt" & FLOODER=$!
  sleep 1
  real "$DATA/beside-$budget.txt"
  wait "$FLOODER"
  line "budget $budget: real traffic beside the flood" "$DATA/beside-$budget.txt"
  line "budget $budget: the flood" "$DATA/flood-$budget.txt"
  echo "  database transactions during the flood: $(( $(xacts) - commits ))"
  stop
done
