#!/usr/bin/env bash
# What counting verifies costs, measured in one run against a real PostgreSQL server process and the service's jar,
# on loopback: two instances on one database, the same in all but kvportal.analytics.counting (on / off), driven in
# turn with 10,000 keys presented at random at the highest rate wrk gets (cases in the order on off off on on off ...,
# so that a linear drift of the machine, the JIT's included, falls on both sides alike). Prints:
#   - verify req/s and p99 with counting on and off, and the ratio on / off (goal: at least 0.95);
#   - counting's transactions per instance per minute while driven: the distinct transactions that wrote the counts
#     (a statement trigger on key_verifications_day, installed by this script in its own database, notes each);
#   - the counts tables' size (pg_total_relation_size of key_verifications_minute, _hour and _day) per million
#     verifies counted, per row, and per key active every minute of a day (1,440 minute + 24 hour + 1 day rows).
# Usage: bench/analytics.sh [seconds per case, default 15] [pairs of cases, default 4] [connections, default 16]
# Environment: PGBIN (default /usr/lib/postgresql/15/bin), BENCH_PORT (first of 2 ports, default 18601),
#   BENCH_PG_PORT (default 18570), BENCH_KEYS_DIR (keeps the generated keys between runs).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-15}
PAIRS=${2:-4}
CONNECTIONS=${3:-16}
THREADS=$(( CONNECTIONS < 2 ? 1 : 2 ))
source bench/lib.sh
bench_prelude 18570 18601
KEYS_DIR=${BENCH_KEYS_DIR:-$DATA}
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

ON=$PORT
OFF=$(( PORT + 1 ))
start_instance() { # start_instance PORT COUNTING
  launch "$1" "$DATA/instance-$1.log" -XX:+UseG1GC -Xms512m -Xmx512m -- \
    --kvportal.key-cache.preload=true --kvportal.analytics.counting="$2"
  PIDS+=($!)
}
start_instance "$ON" true
await_ready "$ON" "$DATA/instance-$ON.log"
bench_account
keys 10000 ws10k
# both instances start once the keys exist, so that each cache preloads them all
kill "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; PIDS=()
start_instance "$ON" true
start_instance "$OFF" false
await_ready "$ON" "$DATA/instance-$ON.log"
await_ready "$OFF" "$DATA/instance-$OFF.log"

drive() { # drive PORT DURATION: wrk over the 10,000 keys at random
  THREADS=$THREADS KEYS=$KEYS_DIR/ws10k.keys wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2" --latency \
    -s bench/verify-keys.lua "http://127.0.0.1:$1"
}

echo "Warming up (20 s per instance, every key presented)..."
for port in "$ON" "$OFF"; do
  THREADS=$THREADS ORDER=seq KEYS=$KEYS_DIR/ws10k.keys wrk -t"$THREADS" -c"$CONNECTIONS" -d5s \
    -s bench/verify-keys.lua "http://127.0.0.1:$port" >/dev/null
  drive "$port" 15s >/dev/null
  PORT=$port await_cached 10000 120
done

# every transaction that writes counts, noted by a statement trigger (this database is the benchmark's own)
sql "create table counting_transactions (txid bigint, at timestamptz default clock_timestamp());
  create function note_counting_transaction() returns trigger language plpgsql as
    \$\$ begin insert into counting_transactions (txid) values (txid_current()); return null; end \$\$;
  create trigger note_counting_transaction after insert on key_verifications_day
    for each statement execute function note_counting_transaction()" >/dev/null
now() { sql "select clock_timestamp()"; }
# one case: wrk, then 11 s for the last flush of the case; the counting transactions while wrk ran
case_of() { # case_of NAME PORT: prints one line
  local t0 t1 out
  t0=$(now)
  out=$(drive "$2" "${SECONDS_PER_CASE}s")
  t1=$(now)
  sleep 11
  echo "$1|$(echo "$out" | awk '/Requests\/sec/{print $2}')|$(echo "$out" | awk '$1=="99%"{print $2}')|$(echo "$out" | awk '/requests in/{print $1}')|$(echo "$out" | awk '/Non-2xx/{print $NF}')|$(sql "select count(distinct txid) from counting_transactions where at between '$t0' and '$t1'")|$(sql "select extract(epoch from timestamptz '$t1' - timestamptz '$t0')")"
}
echo
echo "wrk: $THREADS threads, $CONNECTIONS connections, ${SECONDS_PER_CASE}s per case, $PAIRS pairs in the order on off" \
  "off on (a linear drift of the machine falls on both sides alike); $(nproc) cores shared by wrk, two instances and" \
  "PostgreSQL"
sleep 11
ROWS=$DATA/rows
for pair in $(seq 1 "$PAIRS"); do
  if [ $(( pair % 2 )) -eq 1 ]; then order="on off"; else order="off on"; fi
  for side in $order; do
    if [ "$side" = on ]; then case_of on "$ON"; else case_of off "$OFF"; fi | tee -a "$ROWS"
  done
done
sleep 11
SIZES=$(sql "select pg_total_relation_size('key_verifications_minute') + pg_total_relation_size('key_verifications_hour')
  + pg_total_relation_size('key_verifications_day'),
  (select count(*) from key_verifications_minute) + (select count(*) from key_verifications_hour)
  + (select count(*) from key_verifications_day),
  (select count(*) from key_verifications_minute),
  (select coalesce(sum(valid + revoked + expired + disabled + ip_not_allowed + rate_limited + credits_exhausted), 0)
   from key_verifications_day)")
echo
SECONDS_PER_CASE=$SECONDS_PER_CASE SIZES=$SIZES python3 - "$ROWS" <<'EOF'
import os, sys
rows = [line.rstrip("\n").split("|") for line in open(sys.argv[1]) if "|" in line]
side = {"on": [], "off": []}
for name, rps, p99, n, non2xx, flushes, seconds in rows:
    side[name].append((float(rps), p99, int(n), int(non2xx or 0), int(flushes), float(seconds)))
def rps(s): return sum(r[2] for r in side[s]) / (len(side[s]) * float(os.environ["SECONDS_PER_CASE"]))
print("  %-9s %10s %12s %10s %15s   %s" % ("counting", "req/s", "verifies", "non-2xx", "flush txns/min", "req/s and p99 of each case"))
for s in ("on", "off"):
    cases = side[s]
    print("  %-9s %10.0f %12d %10d %15.1f   %s" % (s, rps(s), sum(c[2] for c in cases), sum(c[3] for c in cases),
          sum(c[4] for c in cases) * 60 / sum(c[5] for c in cases), ", ".join("%.0f %s" % (c[0], c[1]) for c in cases)))
print("  ratio on / off: %.3f (goal >= 0.95)" % (rps("on") / rps("off")))
print("  counting's transactions per instance per minute under load: %.1f (one flush per 10 s is 6; the off"
      " instance writes none)" % (sum(c[4] for c in side["on"]) * 60 / sum(c[5] for c in side["on"])))
size, total_rows, minute_rows, counted = (int(v) for v in os.environ["SIZES"].split("|"))
per_row = size / total_rows
print("  counts tables: %d bytes, %d rows (%d minute rows), %d verifies counted" % (size, total_rows, minute_rows, counted))
print("  size per million verifies counted: %.2f MB (here %.1f verifies per key and minute)"
      % (size / counted, counted / minute_rows))
print("  size per row: %.0f bytes; per key active every minute of a day (1,465 rows): %.0f kB"
      % (per_row, per_row * 1465 / 1e3))
EOF
