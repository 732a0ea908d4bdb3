#!/usr/bin/env bash
# A burst of signups and their verification messages, on a PostgreSQL server process and the service's jar with the
# mail sandbox (its embedded SMTP server records what it receives in mail_sandbox_messages):
#   1. N signups with the outbox not sending (kvportal.mail.deliver=false): the signup p50/p99 without mail work;
#   2. a restart with the outbox on: time until all N queued messages have reached the SMTP server;
#   3. N more signups with the outbox sending: the signup p50/p99 with it, and the time until the last message of
#      the burst arrived after the burst ended;
#   4. N signups again, the service killed with kill -9 in the middle and started again: every signup answered 201
#      has its message (none lost).
# Usage: bench/mail.sh [N=1000] [CONCURRENCY=8]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
CONCURRENCY=${2:-8}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${BENCH_PG_PORT:-18650}
PORT=${BENCH_PORT:-18681}
BASE=http://127.0.0.1:$PORT

[ -x "$PGBIN/postgres" ] || { echo "PostgreSQL binaries not found in $PGBIN (set PGBIN)" >&2; exit 1; }
source bench/lib.sh
find_jar

DATA=$(mktemp -d)
chmod 755 "$DATA"
PID=
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null || true
  [ -n "$PID" ] && wait "$PID" 2>/dev/null || true
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

# start DELIVER: the service without the signup limit, the outbox sending or not
start() {
  launch "$PORT" "$DATA/service.log" -Xmx512m -- --kvportal.limits.signups-per-address=0 \
    --kvportal.mail.deliver="$1"
  PID=$!
  await_ready "$PORT" "$DATA/service.log"
}

# burst TAG: N signups, CONCURRENCY at a time; one line "status seconds" per signup in $DATA/TAG.times
burst() {
  seq 1 "$N" | xargs -P "$CONCURRENCY" -I{} curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
    -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1-{}-$RANDOM@bench.example\",\"password\":\"correct horse battery\"}" \
    "$BASE/api/v1/auth/signup" >"$DATA/$1.times" || true
}

percentiles() { # percentiles TAG: p50 and p99 of the 201 answers, in ms
  awk '$1 == 201 {print $2 * 1000}' "$DATA/$1.times" | sort -n | awk '{v[NR] = $1} END {
    if (NR == 0) {print "no 201"; exit}
    printf "%d signups answered 201, p50 %.0f ms, p99 %.0f ms\n", NR, v[int(NR * 0.50) + (NR * 0.50 > int(NR * 0.50))], v[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))]}'
}

received() { sql "select count(*) from mail_sandbox_messages where recipient like '$1-%'"; }
now() { date +%s.%N; }

echo "== 1. $N signups, outbox not sending"
start false
burst quiet
echo "   $(percentiles quiet)"
echo "   queued: $(sql "select count(*) from mail_outbox where sent_at is null")"
kill "$PID"; wait "$PID" 2>/dev/null || true

echo "== 2. restart with the outbox sending: the queued messages drain"
t0=$(now)
start true
while [ "$(received quiet)" -lt "$(grep -c '^201' "$DATA/quiet.times")" ]; do sleep 0.2; done
echo "   all $(received quiet) messages at the SMTP server $(echo "$(now) - $t0" | bc) s after the restart began (start-up included)"

echo "== 3. $N signups, outbox sending"
burst busy
t1=$(now)
echo "   $(percentiles busy)"
while [ "$(received busy)" -lt "$(grep -c '^201' "$DATA/busy.times")" ]; do sleep 0.2; done
echo "   last message at the SMTP server $(echo "$(now) - $t1" | bc) s after the burst's last answer"
echo "   commit to SMTP server: $(sql "select concat('p50 ', round(extract(epoch from percentile_cont(0.5) within group (order by m.received_at - o.created_at)) * 1000), ' ms, max ', round(extract(epoch from max(m.received_at - o.created_at)) * 1000), ' ms') from mail_sandbox_messages m join mail_outbox o on o.message_id = m.message_id where m.recipient like 'busy-%'")"

echo "== 4. $N signups, kill -9 in the middle, restart"
burst crash &
BURST=$!
while [ "$(sql "select count(*) from customers where email like 'crash-%'")" -lt $((N / 2)) ]; do sleep 0.1; done
kill -9 "$PID"; wait "$PID" 2>/dev/null || true
wait "$BURST" || true
start true
answered=$(grep -c '^201' "$DATA/crash.times" || true)
# every customer committed before the kill (answered or not) must get its message
for _ in $(seq 1 300); do
  [ "$(received crash)" -ge "$(sql "select count(*) from customers where email like 'crash-%'")" ] && break
  sleep 0.2
done
missing=$(sql "select count(*) from customers c where c.email like 'crash-%' and not exists (select 1 from mail_sandbox_messages m where m.recipient = c.email)")
echo "   $answered signups answered 201 before and during the kill; customers $(sql "select count(*) from customers where email like 'crash-%'"), messages received $(received crash), customers without their message: $missing"
