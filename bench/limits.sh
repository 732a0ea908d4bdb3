#!/usr/bin/env bash
# Verify of a key with rate limits and of a key with credits against verify of a plain key, measured in one run
# against a real PostgreSQL server process and the service's jar, on loopback. Prints for each kind of key: req/s,
# p99 (wrk), the ratio to the plain key's req/s, and database transactions per 1,000 verifies
# (pg_stat_database.xact_commit during the case, the idle rate of the same span subtracted).
# The rate-limited key: 1,000,000 per day (never refused: the cost of leasing is measured, not of refusing);
# the credit key: 1,000,000,000 credits.
# Usage: bench/limits.sh [seconds per case, default 10] [connections, default 16]
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), BENCH_PORT (default 18591), BENCH_PG_PORT (default 18560).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-10}
CONNECTIONS=${2:-16}
THREADS=$(( CONNECTIONS < 2 ? 1 : 2 ))
source bench/lib.sh
bench_prelude 18560 18591
PID=
cleanup() {
  [ -n "$PID" ] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres
launch "$PORT" "$DATA/instance.log" -XX:+UseG1GC -Xms1g -Xmx1g --
PID=$!
await_ready "$PORT" "$DATA/instance.log"
bench_account

create_key() { # create_key JSON_FIELDS: a raw key with these extra fields
  curl -fs -b "$COOKIES" -H 'Content-Type: application/json' -H "X-XSRF-TOKEN: $XSRF" \
    -d "{\"name\":\"bench $RANDOM$RANDOM\"$1}" "$BASE/api/v1/api-keys" \
    | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])'
}
PLAIN=$(create_key '')
LIMITED=$(create_key ',"ratelimits":[{"name":"daily","limit":1000000,"duration_ms":86400000}]')
CREDITS=$(create_key ',"credits":{"remaining":1000000000}')
xacts() { sql "select xact_commit from pg_stat_database where datname = 'kvbench'" ; }
verify() { KEY=$1 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2" --latency -s bench/verify.lua "$BASE/api/v1/api-keys/verify"; }

echo "Warming up (${WARMUP_SECONDS:-30} s of the three keys in turn)..."
until=$(( SECONDS + ${WARMUP_SECONDS:-30} ))
while [ "$SECONDS" -lt "$until" ]; do
  for key in "$PLAIN" "$LIMITED" "$CREDITS"; do verify "$key" 3s >/dev/null; done
done

# one case: wrk, then 11 s for backends to report their counts, then an idle span as long as the case + 11 s
case_of() { # case_of NAME KEY: prints one line
  local x0 x1 x2 out rps p99 n
  sleep 12; x0=$(xacts)
  out=$(verify "$2" "${SECONDS_PER_CASE}s")
  sleep 11; x1=$(xacts)
  sleep $(( SECONDS_PER_CASE + 11 )); x2=$(xacts)
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  p99=$(echo "$out" | awk '$1=="99%"{print $2}')
  n=$(echo "$out" | awk '/requests in/{print $1}')
  non2xx=$(echo "$out" | awk '/Non-2xx/{print $NF}')
  echo "$1|$rps|$p99|$n|${non2xx:-0}|$x0|$x1|$x2"
}
echo
echo "wrk: $THREADS threads, $CONNECTIONS connections, ${SECONDS_PER_CASE}s per case; $(nproc) cores shared by wrk, the service and PostgreSQL"
{
  case_of "plain key" "$PLAIN"
  case_of "rate-limited key (1,000,000 per day)" "$LIMITED"
  case_of "key with credits" "$CREDITS"
} | python3 -c '
import sys
rows = [line.rstrip("\n").split("|") for line in sys.stdin]
plain = float(rows[0][1])
print("  %-40s %10s %9s %8s %10s %18s" % ("case", "req/s", "p99", "× plain", "non-2xx", "transactions/1,000"))
for name, rps, p99, n, non2xx, x0, x1, x2 in rows:
    load, idle = int(x1) - int(x0), int(x2) - int(x1)
    per = max(0.0, load - idle) * 1000 / int(n)
    print("  %-40s %10.0f %9s %8.2f %10s %18.2f" % (name, float(rps), p99, float(rps) / plain, non2xx, per))
'
