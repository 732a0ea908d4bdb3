#!/usr/bin/env bash
# Verify from memory, measured in one run against a real PostgreSQL server process (Debian's PostgreSQL 15, started
# as user postgres in a temporary directory) and the service's jar, all on loopback. Prints:
#   - warm verify throughput as a ratio of the service's no-I/O floor (a verify refused by the checksum);
#   - the same over a working set of 2,000 keys, presented at random;
#   - database transactions per 1,000 warm verifies (pg_stat_database.xact_commit, idle rate subtracted);
#   - p99 of verify over 10 k keys and over 1 M keys (each set cached whole), as wrk sees it and as the service
#     measures it (Spring's http.server.requests histogram: from the filter chain's start to its end);
#   - revoke latency p50/p99 with 1, 2 and 3 instances (every instance holding the key in memory);
#   - heap after a full GC with 1 M keys cached, against the same instance before.
# Usage: bench/verify.sh [seconds per case, default 8] [connections, default 16]
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), BENCH_PORT (first of 4 ports, default 18581),
#   BENCH_PG_PORT (default 18550), MILLION (keys of the large set, default 1000000), TRIALS (revokes per instance
#   count, default 200, after 30 untimed ones: WARMUP), BENCH_KEYS_DIR (keeps the generated keys between runs).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-8}
CONNECTIONS=${2:-16}
THREADS=$(( CONNECTIONS < 2 ? 1 : 2 ))
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${BENCH_PG_PORT:-18550}
PORT=${BENCH_PORT:-18581}
MILLION=${MILLION:-1000000}
TRIALS=${TRIALS:-200}
BASE=http://127.0.0.1:$PORT

command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
[ -x "$PGBIN/postgres" ] || { echo "PostgreSQL binaries not found in $PGBIN (set PGBIN)" >&2; exit 1; }
source bench/lib.sh
find_jar

DATA=$(mktemp -d)
chmod 755 "$DATA"
KEYS_DIR=${BENCH_KEYS_DIR:-$DATA}   # generated keys are kept there between runs when it is set
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

start_instance() { # start_instance N HEAP [service arguments]: instance N listens on PORT+N-1
  local n=$1 heap=$2; shift 2
  launch $(( PORT + n - 1 )) "$DATA/instance-$n.log" -XX:+UseG1GC -Xms"$heap" -Xmx"$heap" \
    -Xlog:gc:file="$DATA/gc-$n-$SECONDS.log" -- --logging.level.com.kvportal.apikey=info "$@"
  PIDS[$n]=$!
  await_ready $(( PORT + n - 1 )) "$DATA/instance-$n.log"
}
gc_log() { ls -t "$DATA"/gc-1-*.log | head -1; }   # instance 1's, since its last start
stop_instance() { kill "${PIDS[$1]}"; wait "${PIDS[$1]}" 2>/dev/null || true; unset "PIDS[$1]"; }
heap_mb() { # used heap after a full GC, in MB
  local pid=${PIDS[1]}
  jcmd "$pid" GC.run >/dev/null
  sleep 1
  jcmd "$pid" GC.heap_info | python3 -c '
import re, sys
text = sys.stdin.read()
used = [int(m) for m in re.findall(r"used (\d+)K", text)]
print(round(sum(used[:1]) / 1024))'
}

start_instance 1 2g --kvportal.key-cache.maximum-size=$(( MILLION + 100000 )) --kvportal.key-cache.preload=true

bench_account
create_key() { # create_key PERMISSION: a raw key
  curl -fs -b "$COOKIES" -H 'Content-Type: application/json' -H "X-XSRF-TOKEN: $XSRF" \
    -d "{\"name\":\"bench $RANDOM$RANDOM\",\"permissions\":[\"$1\"]}" "$BASE/api/v1/api-keys" \
    | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])'
}
KEY=$(create_key write)
ADMIN=$(create_key admin)
keys 2000 ws2k
keys 10000 ws10k
# the million keys are made now (inserted later): every random-key case keeps them in wrk's memory (BALLAST)
make_keys "$MILLION" ws1m
export BALLAST=$KEYS_DIR/ws1m.keys
MALFORMED=kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ8 # checksum wrong

run() { # run NAME wrk-arguments...: one case; prints its line and keeps its figures
  local name=$1; shift
  local file; file=$DATA/$(echo "$name" | tr -c 'A-Za-z0-9' '_')
  measure "$file" -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency "$@"
  printf '  %-44s %9s req/s   p50 %8s   p99 %8s   non-2xx %s   in the service: p99 <= %s ms, %s over 10 ms, %s over 50 ms\n' \
    "$name" "$RPS" "$P50" "$P99" "${NON2XX:-0}" "$SERVER_P99" "$OVER10" "$OVER50"
  echo "$RPS" >"$file.rps"; echo "$P99" >"$file.p99"; echo "$REQUESTS" >"$file.n"; echo "$SERVER_P99" >"$file.sp99"
}
fig() { cat "$DATA/$(echo "$1" | tr -c 'A-Za-z0-9' '_').$2"; }
ratio() { python3 -c "import sys;print(f'{float(sys.argv[1])/float(sys.argv[2]):.2f}')" "$1" "$2"; }
ms() { python3 -c "
import sys; v=sys.argv[1]
print(float(v[:-2]) if v.endswith('ms') else float(v[:-2])/1000 if v.endswith('us') else float(v[:-1])*1000)" "$1"; }
xacts() { sql "select xact_commit from pg_stat_database where datname = 'kvbench'"; }

warm_up() { # warm_up KEYS_FILE: WARMUP_SECONDS (default 45) of the cases' mixed load, until the JIT has compiled
  # verify's paths (on two shared cores a fresh JVM is still getting faster after 30 s: cold cases are not compared)
  local until=$(( SECONDS + ${WARMUP_SECONDS:-45} ))
  while [ "$SECONDS" -lt "$until" ]; do
    KEY=$MALFORMED wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >/dev/null
    KEY=$KEY wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >/dev/null
    THREADS=$THREADS KEYS=$1 wrk -t"$THREADS" -c"$CONNECTIONS" -d4s -s bench/verify-keys.lua "$BASE" >/dev/null
  done
}

echo "Warming up (the 2,000 and 10,000 keys presented once each, then ${WARMUP_SECONDS:-45} s of mixed load)..."
THREADS=$THREADS ORDER=seq KEYS=$KEYS_DIR/ws2k.keys wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s bench/verify-keys.lua "$BASE" >/dev/null
THREADS=$THREADS ORDER=seq KEYS=$KEYS_DIR/ws10k.keys wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s bench/verify-keys.lua "$BASE" >/dev/null
warm_up "$KEYS_DIR/ws10k.keys"

echo
echo "wrk: $THREADS threads, $CONNECTIONS connections, ${SECONDS_PER_CASE}s per case; $(nproc) cores shared by wrk, the service and PostgreSQL"
FLOOR="floor: verify refused by the checksum (no I/O)"
WARM="warm verify, one key"
WS="warm verify, 2,000 keys at random"
K10="warm verify, 10,000 keys at random"
K1M="warm verify, $MILLION keys at random"
K10_ON_1M="warm verify, 10,000 keys, instance holding $MILLION"
KEY=$MALFORMED run "$FLOOR" -s bench/verify.lua "$BASE/api/v1/api-keys/verify"
X0=$(xacts)
KEY=$KEY run "$WARM" -s bench/verify.lua "$BASE/api/v1/api-keys/verify"
sleep 11; X1=$(xacts)   # backends report their counts within ~10 s of going idle
sleep $(( SECONDS_PER_CASE + 11 )); X2=$(xacts)
THREADS=$THREADS KEYS=$KEYS_DIR/ws2k.keys run "$WS" -s bench/verify-keys.lua "$BASE"
G0=$(wc -l <"$(gc_log)")
THREADS=$THREADS KEYS=$KEYS_DIR/ws10k.keys run "$K10" -s bench/verify-keys.lua "$BASE"
GC_10K=$(gc_pauses "$(gc_log)" "$G0")
FROM_DB=$(metric 'kvportal_key_cache_answers_total{from="database"}')
FROM_MEMORY=$(metric 'kvportal_key_cache_answers_total{from="memory"}')

echo
echo "Revoke latency (ms; $TRIALS revokes per row, each key verified on every instance first, refused by all after):"
URLS=("$BASE")
printf '  %-12s %8s %8s %8s\n' instances p50 p99 max
read -r P50 P99 MAX < <(python3 bench/revoke_latency.py "$ADMIN" "$TRIALS" "${URLS[@]}")
printf '  %-12s %8s %8s %8s\n' 1 "$P50" "$P99" "$MAX"
for n in 2 3; do
  start_instance $n 384m
  URLS+=("http://127.0.0.1:$(( PORT + n - 1 ))")
  read -r P50 P99 MAX < <(python3 bench/revoke_latency.py "$ADMIN" "$TRIALS" "${URLS[@]}")
  printf '  %-12s %8s %8s %8s\n' $n "$P50" "$P99" "$MAX"
done
stop_instance 3
stop_instance 2

echo
echo "Inserting $MILLION keys, then restarting instance 1 (it preloads them)..."
HEAP_SMALL=$(heap_mb)
CACHED_SMALL=$(metric 'cache_size{cache="api_keys"}')
keys "$MILLION" ws1m
# vacuum, analyze and checkpoint now, so that autovacuum and the checkpointer do not run during the case
sql "vacuum analyze api_keys" >/dev/null; sql "checkpoint" >/dev/null
stop_instance 1
start_instance 1 2g --kvportal.key-cache.maximum-size=$(( MILLION + 100000 )) --kvportal.key-cache.preload=true
await_cached "$MILLION" 300
CACHED_LARGE=$(metric 'cache_size{cache="api_keys"}')
HEAP_LARGE=$(heap_mb)
echo "Warming up the restarted instance as the first (${WARMUP_SECONDS:-45} s of mixed load)..."
warm_up "$KEYS_DIR/ws1m.keys"
# the 10 k keys again, on this instance: what the million cached costs, apart from the spread of the lookups
THREADS=$THREADS KEYS=$KEYS_DIR/ws10k.keys run "$K10_ON_1M" -s bench/verify-keys.lua "$BASE"
G0=$(wc -l <"$(gc_log)")
THREADS=$THREADS KEYS=$KEYS_DIR/ws1m.keys run "$K1M" -s bench/verify-keys.lua "$BASE"
GC_1M=$(gc_pauses "$(gc_log)" "$G0")

echo
echo "Results of this run:"
printf '  %-58s %s x  (goal >= 0.9)\n' "warm verify / floor" "$(ratio "$(fig "$WARM" rps)" "$(fig "$FLOOR" rps)")"
printf '  %-58s %s x  (goal >= 0.9)\n' "2,000-key working set / floor" "$(ratio "$(fig "$WS" rps)" "$(fig "$FLOOR" rps)")"
python3 - "$X0" "$X1" "$X2" "$(fig "$WARM" n)" "$SECONDS_PER_CASE" <<'PY'
import sys
x0, x1, x2, n, seconds = map(float, sys.argv[1:])
# X0..X1 spans the case and the 11 s that let backends report; X1..X2 is as long, idle: the background
load, idle = x1 - x0, x2 - x1
window = seconds + 11
caused = max(0.0, load - idle)
print("  %-58s %.2f  (goal <= 5)" % ("DB transactions per 1,000 warm verifies, caused by verify", caused * 1000 / n))
print("  %-58s %.2f  (background %.1f/s: lease, usage state)" % (
    "  the same with the background during the case", (caused + idle * seconds / window) * 1000 / n, idle / window))
PY
P99_10K=$(ms "$(fig "$K10" p99)"); P99_1M=$(ms "$(fig "$K1M" p99)")
printf '  %-58s %s ms / %s ms = %s x  (goal <= 1.5)\n' "p99 at $MILLION keys / at 10 k keys, in the service" \
  "$(fig "$K1M" sp99)" "$(fig "$K10" sp99)" "$(ratio "$(fig "$K1M" sp99)" "$(fig "$K10" sp99)")"
printf '  %-58s %s ms / %s ms = %s x\n' "  the same as wrk sees it" "$P99_1M" "$P99_10K" "$(ratio "$P99_1M" "$P99_10K")"
P99_10K_ON_1M=$(ms "$(fig "$K10_ON_1M" p99)")
printf '  %-58s %s ms / %s ms = %s x (wrk), %s ms / %s ms (in the service)\n' \
  "  the same, both on the instance holding $MILLION" "$P99_1M" "$P99_10K_ON_1M" "$(ratio "$P99_1M" "$P99_10K_ON_1M")" \
  "$(fig "$K1M" sp99)" "$(fig "$K10_ON_1M" sp99)"
printf '  %-58s %s\n' "GC of instance 1 during the 10 k case" "$GC_10K"
printf '  %-58s %s\n' "GC of instance 1 during the $MILLION case" "$GC_1M"
printf '  %-58s %s / %s\n' "lookups answered from memory / from the database" "$FROM_MEMORY" "$FROM_DB"
python3 - "$HEAP_SMALL" "$CACHED_SMALL" "$HEAP_LARGE" "$CACHED_LARGE" <<'PY'
import sys
hs, cs, hl, cl = map(float, sys.argv[1:])
print("  %-58s %d MB with %d keys cached, %d MB with %d: %.0f bytes per key" % (
    "heap after a full GC", hs, cs, hl, cl, (hl - hs) * 1024 * 1024 / max(1, cl - cs)))
PY

# storage usage: verify with its plan fields against the service before them, and the ingest rate
if [ "${BENCH_USAGE:-1}" = 1 ]; then
  echo
  echo "Storage usage (bench/usage.sh; BENCH_USAGE=0 skips it):"
  bench/usage.sh "$SECONDS_PER_CASE" "$CONNECTIONS" "${USAGE_ROUNDS:-2}"
fi
