#!/usr/bin/env bash
# Stop what infra/up.sh started: SIGTERM each (all at once; PostgreSQL gets SIGINT, its "fast"
# shutdown), SIGKILL whatever is still alive after ~10 s, then remove the pid files and
# .cache/infra.env. Idempotent.
#
# `down.sh --all` (what `npm run infra:down` runs) stops every instance these scripts started under
# .cache: the default one, `npm run stack`'s (.cache/stack/infra), the drills' (.cache/drills/infra) and
# the TLS/SASL test broker (.cache/secure-kafka).
# An instance started with INFRA_STATE_DIR elsewhere: `INFRA_STATE_DIR=<dir> bash infra/down.sh`.
set -euo pipefail
if [ "${1:-}" = --all ]; then
  cache="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.cache"
  [ -d "$cache" ] || exit 0
  find "$cache" -maxdepth 5 -type d -name infra-run -prune -print | while IFS= read -r run; do
    INFRA_STATE_DIR="$(dirname "$run")" bash "${BASH_SOURCE[0]}"
  done
  # The TLS/SASL test broker (kafka/secure-broker.sh), when a test run ended before stopping it.
  if [ -s "$cache/secure-kafka/kafka.pid" ]; then bash "$(dirname "${BASH_SOURCE[0]}")/kafka/secure-broker.sh" down; fi
  exit 0
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# A postmaster whose pid file in infra-run/ is gone (an up.sh killed half way) still names itself
# in its data dir's postmaster.pid.
pg_pidf="$RUN_DIR/postgres.pid"
if ! live_pid "$pg_pidf" >/dev/null && live_pid "$PG_DATA/postmaster.pid" >/dev/null; then
  pg_pidf="$PG_DATA/postmaster.pid"
fi

declare -A pids=()
for svc in "${ALL_SERVICES[@]}"; do
  f="$RUN_DIR/$svc.pid"
  [ "$svc" = postgres ] && f="$pg_pidf"
  if pid="$(live_pid "$f")"; then
    pids[$svc]="$pid"
    log "stopping $svc (pid $pid)"
    # Each service runs in its own session (setsid); signal the whole group so a
    # child (e.g. Kafka's storage format step) goes too. SIGTERM would make PostgreSQL wait
    # for its clients to disconnect; SIGINT rolls them back and stops at once.
    sig=TERM
    [ "$svc" = postgres ] && sig=INT
    kill -"$sig" -- "-$pid" 2>/dev/null || kill -"$sig" "$pid" 2>/dev/null || true
  fi
done

if [ "${#pids[@]}" -gt 0 ]; then
  wait_gone "${pids[@]}" || true
  for svc in "${!pids[@]}"; do
    pid="${pids[$svc]}"
    if kill -0 "$pid" 2>/dev/null; then
      log "$svc (pid $pid) still alive after 10 s: SIGKILL"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  wait_gone "${pids[@]}" || true   # until the killed ones are gone and their ports closed
fi

for svc in "${ALL_SERVICES[@]}"; do rm -f "$RUN_DIR/$svc.pid"; done
# The nodes of a three-broker cluster (infra/kafka-cluster.sh) in this instance, if any.
if compgen -G "$RUN_DIR/kafka-[123].pid" >/dev/null; then bash "$INFRA_DIR/kafka-cluster.sh" down; fi
rm -f "$ENV_FILE"
log "down"
