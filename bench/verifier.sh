#!/usr/bin/env bash
# The client library (verifier/) in the storage backend's process against today's HTTP verify, measured in one run
# against a real PostgreSQL server process and the service's jar, on loopback. Prints:
#   - cached verifies a second on one thread (so per core) in the holder's process, by JMH: one key, and 1,024 keys
#     presented in turn (goal: at least 1,000,000), with the SHA-256 of a key alone (the floor of a cached verify);
#   - the service's verify over HTTP in the same run: JMH, one request at a time (keep-alive), and wrk (2 threads, 16
#     connections), and the ratio of a cached verify to each;
#   - revoke latency p50/p99/max without holders and with three holders acknowledging (goal: p99 below 50 ms), every
#     holder holding the key in its cache before the revoke and refusing it right after the answer.
# Usage: bench/verifier.sh [wrk seconds, default 8] [revokes per row, default 200, after 30 untimed ones: WARMUP]
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), BENCH_PORT (default 18691), BENCH_PG_PORT (default 18660),
#   JMH_ARGS (more JMH options, e.g. "-wi 1 -i 2" for a quick look).
set -euo pipefail
cd "$(dirname "$0")/.."
WRK_SECONDS=${1:-8}
TRIALS=${2:-200}
source bench/lib.sh
bench_prelude 18660 18691
KEYS_DIR=$DATA
USAGE_API_TOKEN=bench-usage-token-$RANDOM$RANDOM
PID=
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

echo "Building the library's benchmarks (JMH, profile jmh)..."
./mvnw -o -B -q -pl verifier -Pjmh -DskipTests test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$DATA/jmh.classpath" >/dev/null
CP=verifier/target/classes:verifier/target/test-classes:$(cat "$DATA/jmh.classpath")

launch "$PORT" "$DATA/service.log" -XX:+UseG1GC -Xms1g -Xmx1g -- --kvportal.usage.api-token="$USAGE_API_TOKEN"
PID=$!
await_ready "$PORT" "$DATA/service.log"
bench_account
sql "update customers set email_verified_at = now() where id = '$CUSTOMER'" >/dev/null  # creating keys needs it
CREATED=$(curl -s -b "$COOKIES" -H 'Content-Type: application/json' -H "X-XSRF-TOKEN: $XSRF" \
  -d '{"name":"bench admin","permissions":["admin"]}' "$BASE/api/v1/api-keys")
ADMIN=$(echo "$CREATED" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])') \
  || { echo "creating the admin key failed: $CREATED" >&2; exit 1; }
keys 1024 ws1k
KEY=$(head -1 "$KEYS_DIR/ws1k.keys")

echo "JMH: the library's cached verify, a key's SHA-256, and HTTP verify (1 thread each)..."
# shellcheck disable=SC2086
java -cp "$CP" org.openjdk.jmh.Main VerifierBenchmark -p base="$BASE" -p token="$USAGE_API_TOKEN" \
  -p keys="$KEYS_DIR/ws1k.keys" -rf json -rff "$DATA/jmh.json" ${JMH_ARGS:-} >"$DATA/jmh.txt"
grep -E '^(Benchmark|VerifierBenchmark)' "$DATA/jmh.txt" | sed 's/^/  /'

echo "wrk: HTTP verify of one key, 2 threads, 16 connections, ${WRK_SECONDS}s (after ${WRK_SECONDS}s of warm-up)..."
KEY=$KEY wrk -t2 -c16 -d"${WRK_SECONDS}s" -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >/dev/null
KEY=$KEY wrk -t2 -c16 -d"${WRK_SECONDS}s" -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >"$DATA/wrk.txt"
WRK_RPS=$(awk '/Requests\/sec/{print $2}' "$DATA/wrk.txt")

echo "Revoke latency (ms; $TRIALS revokes per row, each key cached by every holder first, refused by all after):"
printf '  %-34s %8s %8s %8s\n' holders p50 p99 max
for holders in 0 3; do
  read -r P50 P99 MAX < <(java -cp "$CP" com.kvportal.verifier.RevokeLatency "$BASE" "$USAGE_API_TOKEN" "$ADMIN" \
    "$TRIALS" "$holders")
  printf '  %-34s %8s %8s %8s\n' "$holders" "$P50" "$P99" "$MAX"
  [ "$holders" = 3 ] && REVOKE_P99=$P99
done

echo
echo "Results of this run ($(nproc) cores shared by the benchmark, the service and PostgreSQL):"
python3 - "$DATA/jmh.json" "$WRK_RPS" "$REVOKE_P99" <<'PY'
import json, sys
results = {r["benchmark"].rsplit(".", 1)[1]: r["primaryMetric"]["score"] for r in json.load(open(sys.argv[1]))}
wrk, revoke_p99 = float(sys.argv[2]), float(sys.argv[3])
one, ws, sha, http = (results[n] for n in ("cachedVerifyOneKey", "cachedVerifyWorkingSet", "sha256OfAKey", "httpVerify"))
line = "  %-58s %s"
print(line % ("cached verify, one key, verifies/s on one thread", "{:,.0f}  ({:.0f} ns each; goal >= 1,000,000)".format(one, 1e9 / one)))
print(line % ("cached verify, 1,024 keys in turn, verifies/s on one thread", "{:,.0f}  ({:.0f} ns each)".format(ws, 1e9 / ws)))
print(line % ("  of which a key's SHA-256 alone", "{:.0f} ns".format(1e9 / sha)))
print(line % ("HTTP verify, one at a time (JMH, 1 thread), verifies/s", "{:,.0f}  (cached / HTTP: {:,.0f}x)".format(http, ws / http)))
print(line % ("HTTP verify, wrk 2 threads 16 connections, verifies/s", "{:,.0f}  (cached / HTTP: {:,.0f}x)".format(wrk, ws / wrk)))
print(line % ("revoke p99 with three acknowledging holders", "{:.1f} ms  (goal < 50 ms)".format(revoke_p99)))
PY
