#!/usr/bin/env bash
# Where the tail at a million keys comes from (bench/README.md). One PostgreSQL 15 server process with 10 k and
# 1 M keys; for each set of JVM options given, one instance that preloads them all, WARM seconds (default 40) of
# warm-up, then ROUNDS rounds (default 2) of three cases of SECS seconds (default 8) on that one instance:
#   10k          10 k keys at random;
#   1m           1 M keys at random;
#   1m-first10k  10 k keys drawn from the million-line file (LIMIT): wrk's work as in the 1 M case, the service's
#                spread as in the 10 k case;
#   raw 10000, raw 1000000: the first 10 k and all of the million keys through bench/RawClient.java, a client that
#                shares no code with wrk (its own collector's pauses show in its max, not in its p99).
# Each case prints wrk's figures, the service's own p99 of the same requests (bench/histogram.py), G1's pauses, and
# PostgreSQL's CPU seconds with api_keys' update counts (the last_used_at write-behind).
# Usage: bench/tail.sh "-XX:+UseG1GC" ["-XX:+UseParallelGC" ...]
# Environment: PGBIN, BENCH_PG_PORT (default 18650), BENCH_PORT (default 18681), BENCH_KEYS_DIR, ROUNDS, SECS, WARM.
set -euo pipefail
OPTION_SETS=("$@")
cd "$(dirname "$0")/.."
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${BENCH_PG_PORT:-18650}
PORT=${BENCH_PORT:-18681}
BASE=http://127.0.0.1:$PORT
SECS=${SECS:-8}
ROUNDS=${ROUNDS:-2}
KEYS_DIR=${BENCH_KEYS_DIR:-/tmp/benchkeys}
mkdir -p "$KEYS_DIR"
source bench/lib.sh
find_jar

DATA=$(mktemp -d)
chmod 755 "$DATA"
PID=
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null
  wait 2>/dev/null || true
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

start() { # start [java options...]: the instance, preloading every key
  launch "$PORT" "$DATA/instance.log" -Xms2g -Xmx2g "$@" -Xlog:gc:file="$DATA/gc.log" -- \
    --kvportal.key-cache.maximum-size=1100000 --kvportal.key-cache.preload=true
  PID=$!
  await_ready "$PORT" "$DATA/instance.log"
}
stop() { kill "$PID"; wait "$PID" || true; PID=; }

start -XX:+UseG1GC
bench_account
keys 10000 ws10k
keys 1000000 ws1m
sql "vacuum analyze api_keys" >/dev/null; sql "checkpoint" >/dev/null
stop
export BALLAST=$KEYS_DIR/ws1m.keys

postgres_cpu() { # CPU seconds of every postgres process so far
  python3 -c '
import os
ticks = 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    if "(postgres)" in stat:
        fields = stat.rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
print(ticks / os.sysconf("SC_CLK_TCK"))'
}

case_() { # case_ NAME KEYS_FILE
  local gc0 cpu0 cpu1 updates
  gc0=$(wc -l <"$DATA/gc.log"); cpu0=$(postgres_cpu)
  THREADS=2 KEYS=$2 measure "$DATA/$1" -t2 -c16 -d"${SECS}s" --latency -s bench/verify-keys.lua "$BASE"
  cpu1=$(postgres_cpu)
  updates=$(sql "select n_tup_hot_upd || ' of ' || n_tup_upd || ' updates heap-only, ' || n_dead_tup || ' dead'
                 from pg_stat_user_tables where relname = 'api_keys'")
  printf '  %-12s %9s req/s  p50 %7s  p99 %8s  (wrk: %s)\n' "$1" "$RPS" "$P50" "$P99" \
    "$(awk '/^    Latency/{print "mean " $2 ", stdev " $3 ", max " $4}' "$DATA/$1.txt")"
  printf '  %-12s in the service: p99 <= %s ms, %s over 10 ms, %s over 50 ms; %s\n' "" "$SERVER_P99" "$OVER10" \
    "$OVER50" "$(gc_pauses "$DATA/gc.log" "$gc0")"
  printf '  %-12s PostgreSQL: %.1f s CPU; api_keys: %s\n' "" "$(python3 -c "print($cpu1 - $cpu0)")" "$updates"
}

for options in "${OPTION_SETS[@]}"; do
  echo "== JVM options: $options"
  # shellcheck disable=SC2086 # the options are words
  start $options
  await_cached 1000000 300
  until=$(( SECONDS + ${WARM:-40} ))
  while [ "$SECONDS" -lt "$until" ]; do
    for file in ws1m ws10k; do
      THREADS=2 KEYS=$KEYS_DIR/$file.keys wrk -t2 -c16 -d4s -s bench/verify-keys.lua "$BASE" >/dev/null
    done
  done
  for _ in $(seq 1 "$ROUNDS"); do
    case_ 10k "$KEYS_DIR/ws10k.keys"
    case_ 1m "$KEYS_DIR/ws1m.keys"
    LIMIT=10000 case_ 1m-first10k "$KEYS_DIR/ws1m.keys"
    for limit in 10000 1000000; do # the cross-check: a client that shares no code with wrk
      printf '  %-12s %s\n' "raw $limit" "$(java -Xms1g -Xmx1g -XX:+UseParallelGC bench/RawClient.java "$PORT" \
        "$KEYS_DIR/ws1m.keys" "$limit" "$SECS" 16)"
    done
  done
  stop
done
