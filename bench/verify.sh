#!/usr/bin/env bash
# Measures verify on loopback against a fresh instance (embedded PostgreSQL in a temp dir) and prints
# throughput and latency of each case with its ratio to a trivial request measured in the same run.
# Usage: bench/verify.sh [seconds per case, default 10] [connections, default 16]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-10}
CONNECTIONS=${2:-16}
THREADS=$(( CONNECTIONS < 2 ? 1 : 2 ))
PORT=${BENCH_PORT:-18181}
BASE=http://127.0.0.1:$PORT

command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
JAR=$(ls target/kv-portal-*.jar 2>/dev/null | grep -v original | head -1 || true)
if [ -z "$JAR" ]; then
  echo "Building the jar..."
  ./mvnw -B -q -DskipTests -Dspotless.check.skip=true package
  JAR=$(ls target/kv-portal-*.jar | grep -v original | head -1)
fi

DATA=$(mktemp -d)
LOG=$DATA/service.log
echo "Starting $JAR on $BASE (data in $DATA)..."
java -Xmx1g -jar "$JAR" --server.port=$PORT --server.address=127.0.0.1 \
  --kvportal.database.embedded-data-dir="$DATA/pg" --logging.level.root=warn >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 120); do
  curl -fs "$BASE/actuator/health/readiness" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -fs "$BASE/actuator/health/readiness" >/dev/null || { echo "service did not start"; tail -50 "$LOG"; exit 1; }

JAR_COOKIES=$DATA/cookies
curl -fs -c "$JAR_COOKIES" -H 'Content-Type: application/json' \
  -d '{"email":"bench@example.com","password":"benchmark password"}' "$BASE/api/v1/auth/signup" >/dev/null
XSRF=$(awk '$6=="XSRF-TOKEN"{print $7}' "$JAR_COOKIES")
KEY=$(curl -fs -b "$JAR_COOKIES" -H 'Content-Type: application/json' -H "X-XSRF-TOKEN: $XSRF" \
  -d '{"name":"bench"}' "$BASE/api/v1/api-keys" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])')
UNKNOWN=kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7   # well formed (checksum right), in no database
MALFORMED=kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ8 # checksum wrong

run() { # name, then wrk arguments
  local name=$1; shift
  local file; file=$DATA/$(echo "$name" | tr -c 'A-Za-z0-9' '_')
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency "$@" >"$file.txt"
  local rps p50 p99
  rps=$(awk '/Requests\/sec/{print $2}' "$file.txt")
  p50=$(awk '$1=="50%"{print $2}' "$file.txt")
  p99=$(awk '$1=="99%"{print $2}' "$file.txt")
  non2xx=$(awk '/Non-2xx/{print $NF}' "$file.txt")
  printf '%-34s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$name" "$rps" "$p50" "$p99" "${non2xx:-0}"
  echo "$rps" >"$file.rps"
}

echo "Warming up..."
KEY=$KEY wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d3s "$BASE/actuator/health/liveness" >/dev/null

echo "wrk: $THREADS threads, $CONNECTIONS connections, ${SECONDS_PER_CASE}s per case, $(nproc) cores shared by server and load"
run "baseline GET /actuator/health/liveness" "$BASE/actuator/health/liveness"
KEY=$KEY run "verify: valid key (1 indexed query)" -s bench/verify.lua "$BASE/api/v1/api-keys/verify"
KEY=$UNKNOWN run "verify: unknown well-formed key" -s bench/verify.lua "$BASE/api/v1/api-keys/verify"
KEY=$MALFORMED run "verify: bad checksum (no query)" -s bench/verify.lua "$BASE/api/v1/api-keys/verify"

ratio() { python3 -c "import sys;print(f'{float(sys.argv[1])/float(sys.argv[2]):.2f}')" "$1" "$2"; }
rps_of() { cat "$DATA/$(echo "$1" | tr -c 'A-Za-z0-9' '_').rps"; }
B=$(rps_of "baseline GET /actuator/health/liveness")
echo
echo "Throughput relative to the baseline measured in this run:"
for name in "verify: valid key (1 indexed query)" "verify: unknown well-formed key" "verify: bad checksum (no query)"; do
  printf '  %-34s %s x\n' "$name" "$(ratio "$(rps_of "$name")" "$B")"
done
sleep 1
LAST_USED=$(\
  curl -fs -b "$JAR_COOKIES" "$BASE/api/v1/api-keys" | python3 -c 'import json,sys;print(json.load(sys.stdin)["keys"][0]["last_used_at"])')
echo "last_used_at after the run: $LAST_USED (written behind verify, in batches)"

# storage usage: verify with its plan fields against the service before them, and the ingest rate
if [ "${BENCH_USAGE:-1}" = 1 ]; then
  kill $PID 2>/dev/null; wait $PID 2>/dev/null || true
  echo
  echo "Storage usage (bench/usage.sh; BENCH_USAGE=0 skips it):"
  bench/usage.sh "$SECONDS_PER_CASE" "$CONNECTIONS" "${USAGE_ROUNDS:-2}"
fi
