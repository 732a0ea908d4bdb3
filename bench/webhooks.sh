#!/usr/bin/env bash
# Webhook deliveries per second to a local receiver, and what they cost verify, in one run: on a PostgreSQL server
# process and the service's jar (allow-private-targets, so that the receiver may be on loopback):
#   1. verify alone (wrk, one key): its req/s;
#   2. deliveries alone: N deliveries queued at once (rows of the outbox), drained by the delivery pool; deliveries/s;
#   3. both at once: verify's req/s beside N more deliveries, and the deliveries/s meanwhile;
#   4. verify beside 100 deliveries to a receiver that never answers (each attempt ends at the 10 s timeout): its
#      p99 against case 1's.
# Usage: bench/webhooks.sh [SECONDS=10] [N=4000] [CONNECTIONS=16]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-10}
N=${2:-4000}
CONNECTIONS=${3:-16}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${BENCH_PG_PORT:-18750}
PORT=${BENCH_PORT:-18781}
RECEIVER_PORT=${BENCH_RECEIVER_PORT:-18782}
HANGING_PORT=${BENCH_HANGING_PORT:-18783}
BASE=http://127.0.0.1:$PORT

[ -x "$PGBIN/postgres" ] || { echo "PostgreSQL binaries not found in $PGBIN (set PGBIN)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
source bench/lib.sh
find_jar

DATA=$(mktemp -d)
chmod 755 "$DATA"
PID=
RECEIVER=
HANGING=
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null || true
  [ -n "$PID" ] && wait "$PID" 2>/dev/null || true
  [ -n "$RECEIVER" ] && kill "$RECEIVER" 2>/dev/null || true
  [ -n "$HANGING" ] && kill "$HANGING" 2>/dev/null || true
  stop_postgres
  rm -rf "$DATA"
}
trap cleanup EXIT
start_postgres

python3 bench/webhook_receiver.py "$RECEIVER_PORT" &
RECEIVER=$!
python3 bench/webhook_receiver.py "$HANGING_PORT" hang &
HANGING=$!
launch "$PORT" "$DATA/service.log" -Xmx512m -- --kvportal.webhooks.allow-private-targets=true
PID=$!
await_ready "$PORT" "$DATA/service.log"
bench_account
KEY=$(curl -fs -b "$COOKIES" -H "X-XSRF-TOKEN: $XSRF" -H 'Content-Type: application/json' \
  -d '{"name":"bench","permissions":["read"]}' "$BASE/api/v1/api-keys" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["api_key"])')
endpoint() { # endpoint PORT: a webhook endpoint on the receiver at PORT; prints its id
  curl -fs -b "$COOKIES" -H "X-XSRF-TOKEN: $XSRF" -H 'Content-Type: application/json' \
    -d "{\"url\":\"http://127.0.0.1:$1/hooks\",\"events\":[\"webhook.test\"]}" \
    "$BASE/api/v1/webhook-endpoints" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'
}
ENDPOINT=$(endpoint "$RECEIVER_PORT")

delivered() { sql "select count(*) from webhook_deliveries where status = 'delivered'"; }
now() { date +%s.%N; }

queue() { # queue TAG [COUNT] [ENDPOINT]: events and their deliveries, due now, in one transaction (as changes would)
  local count=${2:-$N} endpoint=${3:-$ENDPOINT}
  sql "with e as (insert into webhook_events (id, organization_id, type, body)
         select 'msg_$1_' || g, '$ORG', 'webhook.test',
                json_build_object('id', 'msg_$1_' || g, 'type', 'webhook.test', 'organization_id', '$ORG',
                                  'data', json_build_object('n', g))::text
         from generate_series(1, $count) g returning id)
       insert into webhook_deliveries (id, endpoint_id, event_id, next_attempt_at)
       select gen_random_uuid(), '$endpoint', id, now() from e" >/dev/null
}

drain() { # drain TARGET: waits until TARGET deliveries are delivered; prints deliveries/s since the call
  local t0 d0
  t0=$(now); d0=$(delivered)
  while [ "$(delivered)" -lt "$1" ]; do sleep 0.2; done
  python3 -c "import sys; print(round((int(sys.argv[1]) - int(sys.argv[2])) / (float(sys.argv[3]) - float(sys.argv[4]))))" \
    "$1" "$d0" "$(now)" "$t0"
}

verify() { # verify FILE: wrk on verify for SECONDS_PER_CASE; prints req/s (the p99: p99 FILE)
  KEY=$KEY wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency -s bench/verify.lua \
    "$BASE/api/v1/api-keys/verify" >"$DATA/$1.txt"
  awk '/Requests\/sec/{print $2}' "$DATA/$1.txt"
}
p99() { # p99 FILE: wrk's 99th percentile of that case, in ms
  awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) }
                     else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } print v }' "$DATA/$1.txt"
}

echo "warming up (verify and a first batch of deliveries)..."
KEY=$KEY wrk -t2 -c"$CONNECTIONS" -d20s -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >/dev/null
queue warm
drain "$N" >/dev/null

echo "== 1. verify alone"
ALONE=$(verify alone)
echo "   verify: $ALONE req/s"

echo "== 2. $N deliveries alone"
queue solo
SOLO=$(drain $((2 * N)))
echo "   deliveries: $SOLO /s"

echo "== 3. verify beside $N deliveries"
queue both
t0=$(now); d0=$(delivered)
BESIDE=$(verify beside)
WITH=$(python3 -c "import sys; print(round((int(sys.argv[1]) - int(sys.argv[2])) / (float(sys.argv[3]) - float(sys.argv[4]))))" \
  "$(delivered)" "$d0" "$(now)" "$t0")
drain $((3 * N)) >/dev/null
echo "   verify: $BESIDE req/s, deliveries meanwhile: $WITH /s (all $((3 * N)) delivered: $(delivered))"

echo "== 4. verify beside 100 deliveries to a receiver that never answers"
HANG_ENDPOINT=$(endpoint "$HANGING_PORT")
queue hang 100 "$HANG_ENDPOINT"
sleep 1 # every worker is now waiting on the hanging receiver
HUNG=$(verify hung)
IN_FLIGHT=$(sql "select count(*) from webhook_deliveries where endpoint_id = '$HANG_ENDPOINT' and leased_until > now()")
echo "   verify: $HUNG req/s, p99 $(p99 hung) ms (alone: p99 $(p99 alone) ms); attempts in flight at the end: $IN_FLIGHT"

python3 - "$ALONE" "$BESIDE" "$SOLO" "$WITH" "$(p99 alone)" "$(p99 hung)" "$HUNG" <<'PY'
import sys
alone, beside, solo, with_load, p99_alone, p99_hung, hung = map(float, sys.argv[1:])
print(f"verify beside deliveries / verify alone: {beside / alone:.2f} (goal >= 0.90)")
print(f"deliveries/s: {solo:.0f} alone, {with_load:.0f} beside verify (goal >= 200)")
print(f"verify beside 100 hanging deliveries / alone: req/s {hung / alone:.2f}, p99 {p99_hung / p99_alone:.2f}")
PY
