# Sourced by bench/verify.sh and bench/tail.sh: a PostgreSQL 15 server process in a temporary directory, the service's
# jar started on loopback, an account with a bulk project, keys inserted straight into api_keys, and a case's figures
# as wrk and as the service saw them. The caller sets DATA (a temporary directory), PGBIN, PG_PORT, KEYS_DIR, or calls
# bench_prelude for them.

# every actuator endpoint but health needs it (docs/operations.md, "Metrics")
METRICS_TOKEN=${METRICS_TOKEN:-bench-metrics-token}
# the key that seals the stored secrets: with DATABASE_URL the service refuses to start without one (one per run)
KVPORTAL_ENCRYPTION_KEYS=${KVPORTAL_ENCRYPTION_KEYS:-$(head -c 32 /dev/urandom | base64)}

as_postgres() { runuser -u postgres -- "$@"; }

start_postgres() { # initdb, start on 127.0.0.1:$PG_PORT, create database kvbench; sets PSQL and DATABASE_URL
  echo "Starting PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (data in $DATA/pg)..."
  mkdir -p "$DATA/pg" "$DATA/sock" && chown postgres "$DATA/pg" "$DATA/sock"
  as_postgres "$PGBIN/initdb" -D "$DATA/pg" -A trust -U postgres --no-sync >/dev/null
  as_postgres "$PGBIN/pg_ctl" -D "$DATA/pg" -l "$DATA/sock/pg.log" -w \
    -o "-p $PG_PORT -k $DATA/sock -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=256MB" \
    start >/dev/null
  PSQL=("$PGBIN/psql" -X -q -t -A -h 127.0.0.1 -p "$PG_PORT" -U postgres)
  "${PSQL[@]}" -c "create database kvbench" postgres
  DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/kvbench"
}

stop_postgres() { as_postgres "$PGBIN/pg_ctl" -D "$DATA/pg" -m fast stop >/dev/null 2>&1 || true; }

sql() { "${PSQL[@]}" -d kvbench -c "$1"; }

# bench_prelude PG_PORT PORT: what every script starts with: the ports (BENCH_PG_PORT, BENCH_PORT override them), PGBIN,
# BASE, wrk and PostgreSQL checked, the jar found or built, and DATA a fresh temporary directory
bench_prelude() {
  PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
  PG_PORT=${BENCH_PG_PORT:-$1}
  PORT=${BENCH_PORT:-$2}
  BASE=http://127.0.0.1:$PORT
  command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
  [ -x "$PGBIN/postgres" ] || { echo "PostgreSQL binaries not found in $PGBIN (set PGBIN)" >&2; exit 1; }
  find_jar
  DATA=$(mktemp -d)
  chmod 755 "$DATA"
}

find_jar() { # sets JAR, building it when the sources are newer
  JAR=$(ls target/kv-portal-*.jar 2>/dev/null | grep -v original | head -1 || true)
  if [ -z "$JAR" ] || [ -n "$(find src pom.xml service-pom.xml -newer "$JAR" -type f 2>/dev/null | head -1)" ]; then
    echo "Building the jar..."
    ./mvnw -o -B -q -DskipTests -Dspotless.check.skip=true package
    JAR=$(ls target/kv-portal-*.jar | grep -v original | head -1)
  fi
}

# launch PORT LOG [java options...] -- [service arguments...]: the service in the background ($! is its pid), configured
# for real Stripe as in production (no call reaches it: nothing is billed here), so that the payment sandbox's own
# pollers are not counted as the service's background, and with verify's latency histogram on /actuator/prometheus
launch() {
  local port=$1 log=$2; shift 2
  local options=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  DATABASE_URL=$DATABASE_URL METRICS_TOKEN=$METRICS_TOKEN KVPORTAL_ENCRYPTION_KEYS=$KVPORTAL_ENCRYPTION_KEYS \
    STRIPE_SECRET_KEY=sk_test_bench STRIPE_PRICE_PRO=price_bench \
    PAYMENT_WEBHOOK_SECRET=whsec_bench java "${options[@]}" -jar "$JAR" --server.port="$port" \
    --server.address=127.0.0.1 --logging.level.root=warn \
    --management.metrics.distribution.percentiles-histogram.http.server.requests=true \
    "$@" >"$log" 2>&1 &
}

await_ready() { # await_ready PORT LOG
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$1/actuator/health/readiness" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "the service on port $1 did not start"; tail -50 "$2"; exit 1
}

metric() { # metric NAME [port]: a sample of /actuator/prometheus, 0 when absent
  curl -fs -H "Authorization: Bearer $METRICS_TOKEN" "http://127.0.0.1:${2:-$PORT}/actuator/prometheus" \
    | awk -v n="$1" 'index($0, n" ") == 1 {print $NF; found=1} END {if (!found) print 0}'
}

await_cached() { # await_cached COUNT [seconds]
  for _ in $(seq 1 $(( ${2:-120} * 2 ))); do
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)" \
      "$(metric 'cache_size{cache="api_keys"}')" "$1" && return 0
    sleep 0.5
  done
  echo "the cache did not reach $1 keys"; exit 1
}

bench_account() { # signs up on the service at $BASE; sets COOKIES, XSRF, SIGNUP, ORG, CUSTOMER, PROJECT and BULK
  COOKIES=$DATA/cookies
  SIGNUP=$(curl -fs -c "$COOKIES" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"benchmark password"}' "$BASE/api/v1/auth/signup")
  XSRF=$(awk '$6=="XSRF-TOKEN"{print $7}' "$COOKIES")
  read -r ORG CUSTOMER PROJECT < <(echo "$SIGNUP" | python3 -c \
    'import json,sys; b=json.load(sys.stdin); print(b["organization_id"], b["customer_id"], b["project_id"])')
  sql "update customers set email_verified_at = now() where id = '$CUSTOMER'" >/dev/null  # creating keys needs it
  # the bulk keys live in a project of their own (a project holds at most 1,000 keys made through the API)
  BULK=$(sql "insert into projects (id, organization_id, name) values (gen_random_uuid(), '$ORG', 'bulk') returning id")
}

make_keys() { # make_keys N NAME: N raw keys in $KEYS_DIR/NAME.keys and their digests (kept between runs)
  [ -s "$KEYS_DIR/$1-$2.digests" ] || python3 bench/keys.py "$1" "$KEYS_DIR/$2.keys" "$KEYS_DIR/$1-$2.digests"
}

keys() { # keys N NAME: N keys of the bulk project, inserted straight into api_keys
  make_keys "$1" "$2"
  "${PSQL[@]}" -d kvbench -c "create temporary table bulk (digest bytea)" \
    -c "\\copy bulk from '$KEYS_DIR/$1-$2.digests'" \
    -c "insert into api_keys (id, project_id, organization_id, customer_id, name, digest, permissions, expires_at)
        select gen_random_uuid(), '$BULK', '$ORG', '$CUSTOMER', 'bulk', digest, '{read,write}', now() + interval '300 days'
        from bulk"
}

# measure FILE wrk-arguments...: one wrk run against $BASE; keeps wrk's output in FILE.txt and sets RPS, P50, P99,
# REQUESTS, NON2XX, and the service's own view of the same requests: SERVER_P99 (ms, the upper bound of its
# histogram bucket), OVER10 and OVER50 (requests over 10 and 50 ms)
measure() {
  local file=$1; shift
  curl -fs -H "Authorization: Bearer $METRICS_TOKEN" "$BASE/actuator/prometheus" | python3 bench/histogram.py snapshot >"$file.before"
  wrk "$@" >"$file.txt"
  curl -fs -H "Authorization: Bearer $METRICS_TOKEN" "$BASE/actuator/prometheus" | python3 bench/histogram.py snapshot >"$file.after"
  RPS=$(awk '/Requests\/sec/{print $2}' "$file.txt")
  P50=$(awk '$1=="50%"{print $2}' "$file.txt")
  P99=$(awk '$1=="99%"{print $2}' "$file.txt")
  REQUESTS=$(awk '/requests in/{print $1}' "$file.txt")
  NON2XX=$(awk '/Non-2xx/{print $NF}' "$file.txt")
  read -r SERVER_P99 OVER10 OVER50 < <(python3 bench/histogram.py p99 "$file.before" "$file.after")
}

gc_pauses() { # gc_pauses LOG FROM_LINE: the collection pauses logged since that line
  tail -n +"$(( $2 + 1 ))" "$1" | python3 -c '
import re, sys
ms = [float(m) for m in re.findall(r"Pause.* ([0-9.]+)ms$", sys.stdin.read(), re.M)]
print("%d pauses, longest %.1f ms, %.0f ms in all" % (len(ms), max(ms or [0]), sum(ms)))'
}
