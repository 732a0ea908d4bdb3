#!/usr/bin/env bash
# Verify with the usage limits in memory: the database transactions verify causes per 1,000 warm
# verifies (pg_stat_database.xact_commit, idle rate subtracted, as bench/verify.sh counts them) and warm verify's
# throughput as a ratio of the no-I/O floor (a key refused by its checksum), for one organization with a storage cap
# set (skipped by a service that has no limits). Run it on the jar before and after a change to compare.
# Usage: bench/caps.sh [seconds per case, default 8] [connections, default 16]
# Environment: JAR (default: this tree's, built when older than the sources), PGBIN (default
#   /usr/lib/postgresql/15/bin), BENCH_PORT (default 18591), BENCH_PG_PORT (default 18560), WARMUP_SECONDS (30).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-8}
CONNECTIONS=${2:-16}
THREADS=$(( CONNECTIONS < 2 ? 1 : 2 ))
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${BENCH_PG_PORT:-18560}
PORT=${BENCH_PORT:-18591}
BASE=http://127.0.0.1:$PORT
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
source bench/lib.sh
if [ -z "${JAR:-}" ]; then find_jar; fi

DATA=$(mktemp -d)
chmod 755 "$DATA"
PID=
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres
launch "$PORT" "$DATA/service.log" -Xms384m -Xmx384m --
PID=$!
await_ready "$PORT" "$DATA/service.log"
bench_account
KEY=$(curl -fs -b "$COOKIES" -H "X-XSRF-TOKEN: $XSRF" -H 'Content-Type: application/json' \
  -d '{"name":"bench","permissions":["read","write"]}' "$BASE/api/v1/api-keys" | python3 -c 'import json,sys; print(json.load(sys.stdin)["api_key"])')
LIMITS=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -b "$COOKIES" -H "X-XSRF-TOKEN: $XSRF" \
  -H 'Content-Type: application/json' -d '{"storage_cap_bytes":536870912}' "$BASE/api/v1/usage/limits")
echo "usage limits: PUT answered $LIMITS (200: a storage cap is set; 404: a service without limits)"
MALFORMED=kv_AAAAAAAAAAAAAAAAAAAAAAAAAA000000
xacts() { sql "select xact_commit from pg_stat_database where datname = 'kvbench'"; }
rps() { # rps KEY SECONDS: wrk's requests per second and request count
  KEY=$1 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2"s -s bench/verify.lua "$BASE/api/v1/api-keys/verify" \
    | awk '/Requests\/sec/ {r=$2} /requests in/ {n=$1} END {print r, n}'
}
echo "Warming up ${WARMUP_SECONDS:-30} s..."
until=$(( SECONDS + ${WARMUP_SECONDS:-30} ))
while [ "$SECONDS" -lt "$until" ]; do rps "$MALFORMED" 3 >/dev/null; rps "$KEY" 3 >/dev/null; done
curl -fs -X POST -H "Authorization: Bearer $KEY" "$BASE/api/v1/api-keys/verify"; echo
read -r FLOOR _ < <(rps "$MALFORMED" "$SECONDS_PER_CASE")
X0=$(xacts)
read -r WARM N < <(rps "$KEY" "$SECONDS_PER_CASE")
sleep 11; X1=$(xacts)   # backends report their counts within ~10 s of going idle
sleep $(( SECONDS_PER_CASE + 11 )); X2=$(xacts)
python3 - "$FLOOR" "$WARM" "$N" "$X0" "$X1" "$X2" <<'PY'
import sys
floor, warm, n, x0, x1, x2 = map(float, sys.argv[1:])
caused = max(0.0, (x1 - x0) - (x2 - x1))
print("floor %.0f req/s, warm verify %.0f req/s: %.2f x the floor" % (floor, warm, warm / floor))
print("DB transactions per 1,000 warm verifies, caused by verify: %.2f (%d verifies; background %d in as long idle)"
      % (caused * 1000 / n, n, x2 - x1))
PY
