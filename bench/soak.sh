#!/usr/bin/env bash
# The money soak, long: MoneySoakIT (src/test/java/com/kvportal/soak) with more organizations and periods than the
# few minutes of ./mvnw verify allow. Two service JVMs on one embedded PostgreSQL, all on loopback; one instance is
# killed with kill -9 and started again in periods 2, 6, 10, ...
# Usage: bench/soak.sh [organizations, default 200] [periods, default 12] [seed, default: a new one]
# Prints the periods that differ, the totals and the seed; the whole table is in target/soak/money-soak-<seed>.txt,
# the services' logs in target/service-processes/. Exit status: the test's (non-zero when a cent is off).
set -euo pipefail
cd "$(dirname "$0")/.."
ORGANIZATIONS=${1:-200}
PERIODS=${2:-12}
SEED=${3:-}
LOG=target/soak/soak-${ORGANIZATIONS}x${PERIODS}.log
mkdir -p target/soak
echo "money soak: $ORGANIZATIONS organizations, $PERIODS periods${SEED:+, seed $SEED}; log: $LOG"
START=$(date +%s)
STATUS=0
./mvnw -o -B verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=MoneySoakIT \
  -Dspotless.check.skip=true -Dsoak.organizations="$ORGANIZATIONS" -Dsoak.periods="$PERIODS" \
  ${SEED:+-Dsoak.seed="$SEED"} >"$LOG" 2>&1 || STATUS=$?
grep -E '^(money soak|period [0-9]+:|org [0-9]+ |[0-9]+ organizations,|seed |events replayed|org +story)' "$LOG" \
  | grep -v EmbeddedPostgres || true
grep -E 'Tests run:.*MoneySoakIT|unsettled' "$LOG" | head -20 || true
echo "wall time: $(( $(date +%s) - START )) s, exit status $STATUS"
exit $STATUS
