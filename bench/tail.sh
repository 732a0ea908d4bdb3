#!/usr/bin/env bash
# Where the tail at a million keys comes from (README, "Benchmarks"): one PostgreSQL 15 process with 10 k + 1 M keys;
# for each set of JVM flags given, an instance that preloads them all, 40 s of warm-up (WARM), then ROUNDS rounds of
# three 8 s cases (SECS) on that one instance: 10 k keys at random, 1 M keys at random, and 10 k of the million drawn
# from the million-line file (wrk's work the same as in the 1 M case, the service's spread the same as at 10 k).
# Each case prints wrk's figures, PostgreSQL's CPU seconds and api_keys' update counts, G1's pauses, and the
# service's own p99 (http.server.requests and kvportal.verify.latency histograms).
# Usage: bench/tail.sh "-XX:+UseG1GC" ["-XX:+UseParallelGC" ...]   (JAR, BENCH_KEYS_DIR, ROUNDS, SECS, WARM)
set -euo pipefail
FLAGSETS=("$@")
cd "$(dirname "$0")/.."
PGBIN=/usr/lib/postgresql/15/bin; PG_PORT=18650; PORT=18681; BASE=http://127.0.0.1:$PORT
SECS=${SECS:-8}; ROUNDS=${ROUNDS:-2}; KD=${BENCH_KEYS_DIR:-/tmp/benchkeys}; mkdir -p "$KD"
JAR=${JAR:-$(ls target/kv-portal-*.jar | grep -v original | head -1)}
DATA=$(mktemp -d); chmod 755 $DATA
as_postgres() { runuser -u postgres -- "$@"; }
PID=
cleanup() { [ -n "$PID" ] && kill $PID 2>/dev/null; wait 2>/dev/null; as_postgres $PGBIN/pg_ctl -D $DATA/pg -m fast stop >/dev/null 2>&1 || true; rm -rf $DATA; }
trap cleanup EXIT
mkdir -p $DATA/pg $DATA/sock && chown postgres $DATA/pg $DATA/sock
as_postgres $PGBIN/initdb -D $DATA/pg -A trust -U postgres --no-sync >/dev/null
as_postgres $PGBIN/pg_ctl -D $DATA/pg -l $DATA/sock/pg.log -w -o "-p $PG_PORT -k $DATA/sock -c listen_addresses=127.0.0.1 -c shared_buffers=256MB" start >/dev/null
PSQL=($PGBIN/psql -X -q -t -A -h 127.0.0.1 -p $PG_PORT -U postgres)
"${PSQL[@]}" -c "create database kvbench" postgres
DB=postgres://postgres@127.0.0.1:$PG_PORT/kvbench
start() { # start "flags"
  DATABASE_URL=$DB STRIPE_SECRET_KEY=sk_test_bench STRIPE_PRICE_PRO=price_bench PAYMENT_WEBHOOK_SECRET=whsec_bench \
    java -Xms2g -Xmx2g $1 -Xlog:gc:file=$DATA/gc.log -jar $JAR --server.port=$PORT --server.address=127.0.0.1 \
    --logging.level.root=warn --kvportal.key-cache.maximum-size=1100000 --kvportal.key-cache.preload=true --management.metrics.distribution.percentiles-histogram.http.server.requests=true --management.metrics.distribution.percentiles-histogram.kvportal.verify.latency=true >$DATA/inst.log 2>&1 &
  PID=$!
  for _ in $(seq 1 600); do curl -fs $BASE/actuator/health/readiness >/dev/null 2>&1 && return 0; sleep 0.5; done
  tail -30 $DATA/inst.log; exit 1
}
start ""
C=$DATA/c
SIGNUP=$(curl -fs -c $C -H 'Content-Type: application/json' -d '{"email":"bench@example.com","password":"benchmark password"}' $BASE/api/v1/auth/signup)
read -r ORG CUSTOMER PROJECT < <(echo "$SIGNUP" | python3 -c 'import json,sys; b=json.load(sys.stdin); print(b["organization_id"], b["customer_id"], b["project_id"])')
BULK=$("${PSQL[@]}" -d kvbench -c "insert into projects (id, organization_id, name) values (gen_random_uuid(), '$ORG', 'bulk') returning id")
for spec in "10000 ws10k" "1000000 ws1m"; do set -- $spec
  [ -s $KD/$1-$2.digests ] || python3 bench/keys.py $1 $KD/$2.keys $KD/$1-$2.digests
  "${PSQL[@]}" -d kvbench -c "create temporary table bulk (digest bytea)" -c "\\copy bulk from '$KD/$1-$2.digests'" \
    -c "insert into api_keys (id, project_id, organization_id, customer_id, name, digest, permissions, expires_at) select gen_random_uuid(), '$BULK', '$ORG', '$CUSTOMER', 'bulk', digest, '{read,write}', now() + interval '300 days' from bulk"
done
"${PSQL[@]}" -d kvbench -c "vacuum analyze api_keys" -c checkpoint >/dev/null
kill $PID; wait $PID || true; PID=
export BALLAST=$KD/ws1m.keys
pgcpu() { python3 -c '
import os
t=0
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            st=open(f"/proc/{p}/stat").read()
        except OSError: continue
        if "(postgres)" in st:
            f=st.rsplit(")",1)[1].split(); t+=int(f[11])+int(f[12])
print(t)'; }
buckets() { curl -fs $BASE/actuator/prometheus | python3 -c '
import re,sys,json
b={}; v={}
for line in sys.stdin:
    m=re.match(r"http_server_requests_seconds_bucket\{(.*)\} (\S+)",line)
    if m and "api-keys/verify" in m.group(1):
        le=float(re.search(r"le=\"([^\"]+)\"",m.group(1)).group(1).replace("+Inf","inf")); b[le]=b.get(le,0)+float(m.group(2))
    m=re.match(r"kvportal_verify_latency_seconds_bucket\{(.*)\} (\S+)",line)
    if m:
        le=float(re.search(r"le=\"([^\"]+)\"",m.group(1)).group(1).replace("+Inf","inf")); v[le]=v.get(le,0)+float(m.group(2))
print(json.dumps([sorted(b.items()),sorted(v.items())]))' > $DATA/b$1; }
bdiff() { python3 -c '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
out=[]
for i,name in ((0,"http"),(1,"verify")):
    d=[(le,c2-c1) for (le,c1),(_,c2) in zip(a[i],b[i])]
    n=d[-1][1]
    p=lambda q: next(le for le,c in d if c>=q*n)
    over=lambda t: n-max(c for le,c in d if le<=t)
    out.append("%s p99<=%.1fms >10ms:%d >50ms:%d" % (name, p(0.99)*1000, over(0.0101), over(0.0501)))
print("  server: "+"; ".join(out))' $DATA/b0 $DATA/b1; }
case_() { # case_ NAME KEYS
  buckets 0
  local g0; g0=$(wc -l < $DATA/gc.log); local c0; c0=$(pgcpu)
  THREADS=2 KEYS=$2 wrk -t2 -c16 -d${SECS}s --latency -s bench/verify-keys.lua $BASE > $DATA/w.txt
  local gc; gc=$(tail -n +$((g0+1)) $DATA/gc.log | python3 -c '
import re,sys
ms=[float(m) for m in re.findall(r"Pause.* ([0-9.]+)ms$", sys.stdin.read(), re.M)]
print("%d pauses max %.1f sum %.0f" % (len(ms), max(ms or [0]), sum(ms)))')
  local c1; c1=$(pgcpu)
  local dead; dead=$("${PSQL[@]}" -d kvbench -c "select n_dead_tup||' dead, '||n_tup_hot_upd||'/'||n_tup_upd||' hot, autovac '||autovacuum_count from pg_stat_user_tables where relname='api_keys'")
  printf '    %-5s %9s req/s p50 %7s p99 %8s  pg cpu %ss  %s  gc %s\n' $1 "$(awk '/Requests\/sec/{print $2}' $DATA/w.txt)" "$(awk '$1=="50%"{print $2}' $DATA/w.txt)" "$(awk '$1=="99%"{print $2}' $DATA/w.txt)" "$(( (c1-c0)/100 ))" "$dead" "$gc"
  grep -E '^    Latency|^ +(75|90|99)%' $DATA/w.txt | tr -s ' ' | tr '\n' ' '; echo
  buckets 1; bdiff
}
for flags in "${FLAGSETS[@]}"; do
  echo "== flags: ${flags:-(none)}"
  start "$flags"
  for _ in $(seq 1 600); do n=$(curl -fs $BASE/actuator/prometheus | awk 'index($0,"cache_size{cache=\"api_keys\"} ")==1{print int($NF)}'); [ "${n:-0}" -ge 1000000 ] && break; sleep 0.5; done
  end=$((SECONDS+${WARM:-40})); while [ $SECONDS -lt $end ]; do THREADS=2 KEYS=$KD/ws1m.keys wrk -t2 -c16 -d4s -s bench/verify-keys.lua $BASE >/dev/null; THREADS=2 KEYS=$KD/ws10k.keys wrk -t2 -c16 -d4s -s bench/verify-keys.lua $BASE >/dev/null; done
  for r in $(seq 1 $ROUNDS); do case_ 10k $KD/ws10k.keys; case_ 1m $KD/ws1m.keys; LIMIT=10000 case_ 1m-first10k $KD/ws1m.keys; done
  kill $PID; wait $PID || true; PID=
done
