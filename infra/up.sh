#!/usr/bin/env bash
# Start single-node Kafka (KRaft), Apicurio Registry and FerretDB (on a private PostgreSQL 15
# cluster) on 127.0.0.1, wait until each really answers, then write .cache/infra.env.
# Idempotent: services left by a previous up.sh are stopped first, data dirs are wiped on every start.
#
# Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), SCHEMA_REGISTRY_PORT (8081),
#      MONGO_PORT (27017), PG_PORT (27432), INFRA_READY_TIMEOUT (120 s per service),
#      PG_OPTS (extra `-c name=value` for postgres),
#      INFRA_KEEP_ON_FAILURE=1 (leave services running when one fails, for debugging),
#      KAFKA_JAVA_OPTS / APICURIO_JAVA_OPTS (override heap etc.), FERRETDB_GOGC (2000), FERRETDB_GOMAXPROCS (1),
#      FERRETDB_DEBUG_ADDR (host:port: FerretDB serves Go's profiler, /debug/pprof/, there),
#      INFRA_STATE_DIR (.cache: where pids, logs, data and infra.env go; one per instance),
#      INFRA_DATABASE=none (Kafka and the registry only; no PostgreSQL, no FerretDB, no MONGO_URL),
#      INFRA_KAFKA=none (no Kafka: the cluster stack starts three brokers with infra/kafka-cluster.sh).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# C1 only (TieredStopAtLevel=1): a fresh broker's C2 compiler took more CPU than the broker's own work
# for its first minutes (2.3 of 4.3 ms per payout in the benchmark), and C1's code costs about the same
# per message here (2.2 ms per payout against 2.0): a broker these scripts start is always a fresh one.
KAFKA_JAVA_OPTS="${KAFKA_JAVA_OPTS:--Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:TieredStopAtLevel=1}"
APICURIO_JAVA_OPTS="${APICURIO_JAVA_OPTS:--Xms128m -Xmx512m}"
KAFKA_CLUSTER_ID=MkU3OEVBNTcwNTJENDM2Qk   # 16 bytes base64url; data is wiped each start anyway

bash "$INFRA_DIR/fetch.sh"
bash "$INFRA_DIR/down.sh"          # anything from a previous up.sh (pid files alive)

with_database() { [[ " ${SERVICES[*]} " == *" ferretdb "* ]]; }
with_kafka() { [[ " ${SERVICES[*]} " == *" kafka "* ]]; }

ports=("$SCHEMA_REGISTRY_PORT")
if with_kafka; then ports+=("$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"); fi
if with_database; then ports+=("$MONGO_PORT" "$PG_PORT"); fi
for p in "${ports[@]}"; do
  if port_open "$p"; then
    die "port 127.0.0.1:$p is already in use by a process not started by infra/up.sh (see: ss -ltnp 'sport = :$p')"
  fi
done

mkdir -p "$RUN_DIR" "$LOG_DIR"
rm -f "$RUN_DIR"/*.ready "$RUN_DIR"/*.took
rm -rf "$DATA_DIR"
mkdir -p "$DATA_DIR/kafka"

# launch NAME CMD...: run CMD detached (own session, no tty, stdin from /dev/null) with
# output to .cache/infra-logs/NAME.log; the pid of the process that execs CMD is written
# by the process itself to .cache/infra-run/NAME.pid (so it is right whether or not
# setsid had to fork).
launch() {
  local name="$1"; shift
  local pidf="$RUN_DIR/$name.pid"
  rm -f "$pidf"
  # shellcheck disable=SC2016  # $$, $0 and $@ are for the inner bash
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" </dev/null >"$LOG_DIR/$name.log" 2>&1 &
  for _ in $(seq 1 50); do [ -s "$pidf" ] && return 0; sleep 0.1; done
  die "$name did not start (no pid file)"
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- Kafka: render config, format storage, start broker (format+start in one detached job)
KAFKA_PROPS="$RUN_DIR/kafka-server.properties"
sed -e "s#@KAFKA_PORT@#$KAFKA_PORT#g" -e "s#@KAFKA_CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#g" \
    -e "s#@DATA_DIR@#$DATA_DIR/kafka#g" "$INFRA_DIR/kafka/server.properties" >"$KAFKA_PROPS"
KAFKA_LOG4J="-Dlog4j.configuration=file:$INFRA_DIR/kafka/log4j.properties"
kafka_start=$(now)
# shellcheck disable=SC2016  # $0..$4 are for the inner bash
with_kafka && launch kafka bash -c '
  set -e
  java -Xmx128m -XX:TieredStopAtLevel=1 "$0" -cp "$1/*" kafka.tools.StorageTool format \
    -t "$2" -c "$3" --ignore-formatted
  exec java $4 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true "$0" -cp "$1/*" kafka.Kafka "$3"
' "$KAFKA_LOG4J" "$KAFKA_LIBS" "$KAFKA_CLUSTER_ID" "$KAFKA_PROPS" "$KAFKA_JAVA_OPTS"

# --- Apicurio Registry (in-memory H2), config from infra/apicurio/application.properties
apicurio_props=()
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  apicurio_props+=("-D$line")
done <"$INFRA_DIR/apicurio/application.properties"
if [ -f "$APICURIO_HOME/quarkus-run.jar" ]; then                  # 3.x fast-jar layout
  apicurio_jar="$APICURIO_HOME/quarkus-run.jar"
else                                                             # 2.x legacy-jar layout
  apicurio_jar="$(compgen -G "$APICURIO_HOME/*-runner.jar" | head -n1)"
fi
apicurio_start=$(now)
# shellcheck disable=SC2086
launch apicurio java $APICURIO_JAVA_OPTS -Djava.awt.headless=true "${apicurio_props[@]}" \
  -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$SCHEMA_REGISTRY_PORT" -jar "$apicurio_jar"

pg_start='' ferretdb_start=''
if with_database; then
  # --- PostgreSQL 15: a private cluster (lib.sh says whose and where), created afresh (initdb) and run
  # in the foreground of its own session like the others; setpriv (as root) execs without forking, so
  # the pid file holds the postmaster's pid. TCP on 127.0.0.1, and a Unix socket for FerretDB (the
  # loopback TCP stack cost PostgreSQL ≈20 % more CPU per command; docs/benchmarks.md), trust auth
  # (nothing but this machine can reach either). fsync stays on: the figures measured on it are those of
  # a database that keeps what it acknowledged; commit_delay lets commits that arrive together share one
  # WAL flush (each still waits for its flush). TOAST compression is lz4: a stored transaction is over
  # 2 KB, and pglz compressed it again at every write.
  pg_start=$(now)
  # A Unix socket path holds at most 107 bytes: a deep state dir keeps FerretDB on TCP.
  [ ${#PG_SOCKET_DIR} -le 90 ] || PG_SOCKET_DIR=""
  rm -rf "$PG_HOME"
  as_pg=()
  if [ "$(id -u)" -eq 0 ]; then
    install -d -m 700 -o "$PG_USER" -g "$(id -gn "$PG_USER")" "$PG_HOME" "$PG_DATA" ${PG_SOCKET_DIR:+"$PG_SOCKET_DIR"}
    as_pg=(setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --init-groups)
  else
    mkdir -p -m 700 "$PG_HOME" "$PG_DATA" ${PG_SOCKET_DIR:+"$PG_SOCKET_DIR"}
  fi
  # shellcheck disable=SC2016,SC2086  # $0..$4 are for the inner bash; PG_OPTS is split on purpose
  launch postgres "${as_pg[@]}" bash -c '
    set -e
    "$0/initdb" -D "$1" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
    exec "$0/postgres" -D "$1" -p "$2" -c listen_addresses=127.0.0.1 -c unix_socket_directories="$4" \
      -c max_connections=200 -c default_toast_compression=lz4 -c commit_delay=200 -c commit_siblings=2 $3
  ' "$PG_BIN" "$PG_DATA" "$PG_PORT" "${PG_OPTS:-}" "$PG_SOCKET_DIR"

  # --- FerretDB on PostgreSQL (its pool connects on first use, so it may start before the cluster
  # answers)
  ferretdb_start=$(now)
  pg_url="postgres://postgres@127.0.0.1:$PG_PORT/$PG_DATABASE"
  [ -z "$PG_SOCKET_DIR" ] || pg_url="postgres://postgres@/$PG_DATABASE?host=$PG_SOCKET_DIR&port=$PG_PORT"
  launch ferretdb env GOGC="$FERRETDB_GOGC" GOMAXPROCS="$FERRETDB_GOMAXPROCS" "$FERRETDB_BIN" -listen-addr "127.0.0.1:$MONGO_PORT" -handler postgresql \
    -postgresql-url "$pg_url" -log-level warn ${FERRETDB_DEBUG_ADDR:+-debug-addr "$FERRETDB_DEBUG_ADDR"}
fi

# --- Readiness (in parallel). Each check fails fast if its process has died.
alive() { live_pid "$RUN_DIR/$1.pid" >/dev/null; }

http_code() {   # http_code URL -> HTTP status (000 on no answer)
  if command -v curl >/dev/null; then
    curl -s -o /dev/null -m 3 -w '%{http_code}' "$1" || true
  else          # bash fallback: plain HTTP/1.0 over /dev/tcp
    local hostport="${1#http://}" path; path="/${hostport#*/}"; hostport="${hostport%%/*}"
    (exec 3<>"/dev/tcp/${hostport%:*}/${hostport#*:}" &&
      printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$path" "$hostport" >&3 &&
      head -n1 <&3 | awk '{print $2}') 2>/dev/null || echo 000
  fi
}

wait_kafka() {
  local deadline=$((SECONDS + INFRA_READY_TIMEOUT))
  # 1) the log line, 2) the port, 3) a real AdminClient round trip (describeCluster + listTopics).
  until grep -q "Kafka Server started" "$LOG_DIR/kafka.log" 2>/dev/null && port_open "$KAFKA_PORT"; do
    alive kafka || { echo "process exited"; return 1; }
    [ $SECONDS -lt $deadline ] || { echo "timeout waiting for 'Kafka Server started'"; return 1; }
    sleep 0.2
  done
  local left=$((deadline - SECONDS)); [ $left -ge 5 ] || left=5
  java -Xmx128m -XX:TieredStopAtLevel=1 -Dlog4j.configuration="file:$INFRA_DIR/kafka/log4j-probe.properties" \
    -cp "$KAFKA_LIBS/*:$KAFKA_PROBE_DIR" KafkaReady "127.0.0.1:$KAFKA_PORT" "$left"
}

wait_apicurio() {
  local deadline=$((SECONDS + INFRA_READY_TIMEOUT)) url="http://127.0.0.1:$SCHEMA_REGISTRY_PORT/apis/ccompat/v7/subjects"
  until [ "$(http_code "$url")" = 200 ]; do
    alive apicurio || { echo "process exited"; return 1; }
    [ $SECONDS -lt $deadline ] || { echo "timeout waiting for GET $url = 200"; return 1; }
    sleep 0.5
  done
  echo "apicurio ready: GET $url -> 200"
}

wait_postgres() {
  local deadline=$((SECONDS + INFRA_READY_TIMEOUT))
  until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -t 2; do
    alive postgres || { echo "process exited"; return 1; }
    [ $SECONDS -lt $deadline ] || { echo "timeout waiting for pg_isready"; return 1; }
    sleep 0.2
  done
  # The database FerretDB keeps its collections in (one PostgreSQL schema per MongoDB database).
  "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$PG_DATABASE"
  echo "postgres ready: database $PG_DATABASE on 127.0.0.1:$PG_PORT"
}

wait_ferretdb() {
  local deadline=$((SECONDS + INFRA_READY_TIMEOUT))
  # A real OP_MSG {ping: 1} round trip (the same binary, -ping mode).
  until "$FERRETDB_BIN" -ping "127.0.0.1:$MONGO_PORT" -timeout 1s 2>/dev/null; do
    alive ferretdb || { echo "process exited"; return 1; }
    [ $SECONDS -lt $deadline ] || { echo "timeout waiting for mongo ping"; return 1; }
    sleep 0.2
  done
}

declare -A waiter=() started=([kafka]=$kafka_start [apicurio]=$apicurio_start [postgres]=$pg_start [ferretdb]=$ferretdb_start)
for svc in "${SERVICES[@]}"; do
  ( if "wait_$svc" >"$RUN_DIR/$svc.ready" 2>&1; then
      since "${started[$svc]}" >"$RUN_DIR/$svc.took"; exit 0
    fi; exit 1 ) &
  waiter[$svc]=$!
done

failed=()
for svc in "${SERVICES[@]}"; do
  if wait "${waiter[$svc]}"; then
    log "$svc ready in $(cat "$RUN_DIR/$svc.took") s"
  else
    failed+=("$svc")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  for svc in "${failed[@]}"; do
    log "$svc NOT ready: $(tail -n 3 "$RUN_DIR/$svc.ready" 2>/dev/null | tr '\n' ' ')"
    log "---- last 40 lines of ${LOG_DIR#"$REPO"/}/$svc.log ----"
    tail -n 40 "$LOG_DIR/$svc.log" >&2 || true
    log "---- end of $svc.log ----"
  done
  if [ "${INFRA_KEEP_ON_FAILURE:-0}" != 1 ]; then bash "$INFRA_DIR/down.sh"; fi
  die "not ready: ${failed[*]}"
fi

{
  if with_database; then echo "# FerretDB backend: PostgreSQL 127.0.0.1:$PG_PORT/$PG_DATABASE"; fi
  if with_kafka; then echo "export KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"; fi
  echo "export SCHEMA_REGISTRY_URL=http://127.0.0.1:$SCHEMA_REGISTRY_PORT/apis/ccompat/v7"
  # One broker: one copy of each topic (the services' defaults, 3 and 2, are production's).
  echo "export SWITCH_KAFKA_REPLICATION_FACTOR=1"
  echo "export SWITCH_KAFKA_MIN_INSYNC_REPLICAS=1"
  if with_database; then echo "export MONGO_URL=mongodb://127.0.0.1:$MONGO_PORT/"; fi
} >"$ENV_FILE"
log "all ready; wrote ${ENV_FILE#"$REPO"/} (source it)"
cat "$ENV_FILE"
