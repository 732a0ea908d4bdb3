#!/usr/bin/env bash
# Storage usage on loopback, in one run: verify's throughput with its plan fields (tier, storage) against the
# same service without them (the jar of BEFORE_REF, default: the commit before usage came), alternating the two
# instances case by case, and the ingest rate of POST /api/v1/usage/storage in samples per second.
# Usage: bench/usage.sh [seconds per case, default 10] [connections, default 16] [rounds, default 2]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_CASE=${1:-10}
CONNECTIONS=${2:-16}
ROUNDS=${3:-2}
THREADS=$(( CONNECTIONS < 2 ? 1 : 2 ))
PORT=${BENCH_PORT:-18381}
BASE=http://127.0.0.1:$PORT
TOKEN=bench-usage-token

command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
WORK=$(mktemp -d)
PID=
cleanup() {
  # wait answers the killed service's 143: under set -e that would end the trap before the worktree goes
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true; fi
  git worktree remove --force "$WORK/before-src" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

jar_in() { ls "$1"/target/kv-portal-*.jar 2>/dev/null | grep -v original | head -1 || true; }
AFTER=$(jar_in .)
if [ -z "$AFTER" ]; then
  echo "Building the jar..."
  ./mvnw -o -B -q -DskipTests -Dspotless.check.skip=true package
  AFTER=$(jar_in .)
fi
BEFORE_REF=${BEFORE_REF:-$(git log --format=%H -1 --grep '^Usage: storage reporting')^}
BEFORE=target/bench/kv-portal-$(git rev-parse --short "$BEFORE_REF").jar
if [ ! -f "$BEFORE" ]; then
  echo "Building the jar of $(git rev-parse --short "$BEFORE_REF") (before usage) in a temporary worktree..."
  git worktree add --detach "$WORK/before-src" "$BEFORE_REF" >/dev/null 2>&1
  (cd "$WORK/before-src" && ./mvnw -o -B -q -DskipTests -Dspotless.check.skip=true package)
  mkdir -p target/bench
  cp "$(jar_in "$WORK/before-src")" "$BEFORE"
fi

start() { # jar, data dir
  java -Xmx1g -jar "$1" --server.port=$PORT --server.address=127.0.0.1 \
    --kvportal.database.embedded-data-dir="$2" --logging.level.root=warn \
    --kvportal.usage.api-token=$TOKEN >"$2.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 360); do
    curl -fs "$BASE/actuator/health/readiness" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "service did not start"; tail -50 "$2.log"; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

setup() { # signs up, creates a key; sets KEY and PROJECT
  local cookies=$WORK/cookies
  rm -f "$cookies"
  PROJECT=$(curl -fs -c "$cookies" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"benchmark password"}' "$BASE/api/v1/auth/signup" \
    | python3 -c 'import json,sys;print(json.load(sys.stdin)["project_id"])')
  local xsrf; xsrf=$(awk '$6=="XSRF-TOKEN"{print $7}' "$cookies")
  KEY=$(curl -fs -b "$cookies" -H 'Content-Type: application/json' -H "X-XSRF-TOKEN: $xsrf" \
    -d '{"name":"bench"}' "$BASE/api/v1/api-keys" | python3 -c 'import json,sys;print(json.load(sys.stdin)["api_key"])')
}

measure() { # label, then wrk arguments; prints a line and stores req/s in $WORK/<label>.rps (appended per round)
  local label=$1; shift
  local out=$WORK/$label.txt
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_CASE}s" --latency "$@" >"$out"
  local rps p50 p99 non2xx
  rps=$(awk '/Requests\/sec/{print $2}' "$out")
  p50=$(awk '$1=="50%"{print $2}' "$out")
  p99=$(awk '$1=="99%"{print $2}' "$out")
  non2xx=$(awk '/Non-2xx/{print $NF}' "$out")
  printf '  %-28s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$label" "$rps" "$p50" "$p99" "${non2xx:-0}"
  echo "$rps" >>"$WORK/$label.rps"
}

echo "wrk: $THREADS threads, $CONNECTIONS connections, ${SECONDS_PER_CASE}s per case, $ROUNDS rounds, $(nproc) cores shared by server and load"
for round in $(seq 1 "$ROUNDS"); do
  for side in before after; do
    jar=$BEFORE; [ "$side" = after ] && jar=$AFTER
    start "$jar" "$WORK/$side-$round"
    setup
    echo "round $round, $side ($(basename "$jar"))"
    KEY=$KEY wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s bench/verify.lua "$BASE/api/v1/api-keys/verify" >/dev/null
    KEY=$KEY measure "verify-$side" -s bench/verify.lua "$BASE/api/v1/api-keys/verify"
    if [ "$side" = after ]; then
      curl -fs -X POST "$BASE/api/v1/api-keys/verify" -H "Authorization: Bearer $KEY" | python3 -c \
        'import json,sys;b=json.load(sys.stdin);print("    verify answers tier", b["tier"], "storage", json.dumps(b["storage"]))'
      TOKEN=$TOKEN PROJECT=$PROJECT BATCH=1000 \
        wrk -t"$THREADS" -c"$THREADS" -d3s -s bench/ingest.lua "$BASE/api/v1/usage/storage" >/dev/null
      TOKEN=$TOKEN PROJECT=$PROJECT BATCH=1000 \
        measure "ingest-1000-per-request" -t"$THREADS" -c"$THREADS" -s bench/ingest.lua "$BASE/api/v1/usage/storage"
    fi
    stop
  done
done

mean() { python3 -c 'import sys;v=[float(x) for x in open(sys.argv[1])];print(f"{sum(v)/len(v):.2f}")' "$1"; }
B=$(mean "$WORK/verify-before.rps")
A=$(mean "$WORK/verify-after.rps")
I=$(mean "$WORK/ingest-1000-per-request.rps")
echo
echo "verify, mean of $ROUNDS rounds: before $B req/s, with tier and storage $A req/s:" \
  "$(python3 -c "import sys;print(f'{float(sys.argv[1])/float(sys.argv[2]):.2f}')" "$A" "$B") x"
echo "ingest: $I requests/s of 1,000 new samples = $(python3 -c "import sys;print(f'{float(sys.argv[1])*1000:,.0f}')" "$I") samples/s"
