#!/usr/bin/env bash
# A three-broker KRaft cluster on 127.0.0.1 (each node broker and controller, each its own process and
# data dir), with replication factor 3, min.insync.replicas 2, unclean leader election and topic
# auto-creation off (infra/kafka/cluster.properties). Used by `npm run stack -- --cluster` and the
# cluster drills, beside infra/up.sh run with INFRA_KAFKA=none (registry and database only).
#
#   kafka-cluster.sh up        wipe the nodes' data, start the three, wait until the cluster answers
#   kafka-cluster.sh start N   start node N (1-3) again on its data (after a drill's kill -9)
#   kafka-cluster.sh down      stop every node (SIGTERM, then SIGKILL after ~10 s)
#
# Env: INFRA_STATE_DIR (as up.sh: pids in infra-run/kafka-N.pid, logs in infra-logs/kafka-N.log, data
#      in infra-data/kafka-N), KAFKA_CLUSTER_PORTS (19301,19302,19303),
#      KAFKA_CLUSTER_CONTROLLER_PORTS (19311,19312,19313), KAFKA_JAVA_OPTS, INFRA_READY_TIMEOUT.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

KAFKA_JAVA_OPTS="${KAFKA_JAVA_OPTS:--Xms128m -Xmx384m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:TieredStopAtLevel=1}"
KAFKA_CLUSTER_ID=Q2x1c3RlcjNOb2RlczAwMQ   # 16 bytes base64url; data is wiped at each `up`
IFS=, read -r -a PORTS <<<"${KAFKA_CLUSTER_PORTS:-19301,19302,19303}"
IFS=, read -r -a CONTROLLERS <<<"${KAFKA_CLUSTER_CONTROLLER_PORTS:-19311,19312,19313}"
[ "${#PORTS[@]}" = 3 ] && [ "${#CONTROLLERS[@]}" = 3 ] || die "KAFKA_CLUSTER_PORTS and KAFKA_CLUSTER_CONTROLLER_PORTS name three ports each"
VOTERS="1@127.0.0.1:${CONTROLLERS[0]},2@127.0.0.1:${CONTROLLERS[1]},3@127.0.0.1:${CONTROLLERS[2]}"
KAFKA_LOG4J="-Dlog4j.configuration=file:$INFRA_DIR/kafka/log4j.properties"

start_node() {   # start_node N: render its config, format its dir (once), run it in its own session
  local n="$1" i=$(($1 - 1)) props pidf
  props="$RUN_DIR/kafka-$n.properties"
  pidf="$RUN_DIR/kafka-$n.pid"
  mkdir -p "$RUN_DIR" "$LOG_DIR" "$DATA_DIR/kafka-$n"
  sed -e "s#@NODE_ID@#$n#g" -e "s#@KAFKA_PORT@#${PORTS[$i]}#g" -e "s#@KAFKA_CONTROLLER_PORT@#${CONTROLLERS[$i]}#g" \
      -e "s#@VOTERS@#$VOTERS#g" -e "s#@DATA_DIR@#$DATA_DIR/kafka-$n#g" "$INFRA_DIR/kafka/cluster.properties" >"$props"
  rm -f "$pidf"
  # shellcheck disable=SC2016  # $0..$5 are for the inner bash
  setsid bash -c '
    echo $$ >"$5"
    set -e
    java -Xmx128m -XX:TieredStopAtLevel=1 "$0" -cp "$1/*" kafka.tools.StorageTool format \
      -t "$2" -c "$3" --ignore-formatted
    exec java $4 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true "$0" -cp "$1/*" kafka.Kafka "$3"
  ' "$KAFKA_LOG4J" "$KAFKA_LIBS" "$KAFKA_CLUSTER_ID" "$props" "$KAFKA_JAVA_OPTS" "$pidf" \
    </dev/null >>"$LOG_DIR/kafka-$n.log" 2>&1 &
  for _ in $(seq 1 50); do [ -s "$pidf" ] && return 0; sleep 0.1; done
  die "kafka-$n did not start (no pid file)"
}

wait_node() {   # wait_node N: its port answers and the cluster, asked through it, has a controller
  local n="$1" i=$(($1 - 1)) deadline=$((SECONDS + INFRA_READY_TIMEOUT))
  until port_open "${PORTS[$i]}"; do
    live_pid "$RUN_DIR/kafka-$n.pid" >/dev/null || die "kafka-$n exited (see ${LOG_DIR#"$REPO"/}/kafka-$n.log)"
    [ $SECONDS -lt $deadline ] || die "kafka-$n: port ${PORTS[$i]} closed after $INFRA_READY_TIMEOUT s"
    sleep 0.2
  done
  local left=$((deadline - SECONDS)); [ $left -ge 5 ] || left=5
  java -Xmx128m -XX:TieredStopAtLevel=1 -Dlog4j.configuration="file:$INFRA_DIR/kafka/log4j-probe.properties" \
    -cp "$KAFKA_LIBS/*:$KAFKA_PROBE_DIR" KafkaReady "127.0.0.1:${PORTS[$i]}" "$left" >/dev/null
}

stop_nodes() {
  local n pid pids=()
  for n in 1 2 3; do
    if pid="$(live_pid "$RUN_DIR/kafka-$n.pid")"; then
      log "stopping kafka-$n (pid $pid)"
      kill -CONT -- "-$pid" 2>/dev/null || true   # a paused broker cannot exit
      kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  wait_gone "${pids[@]}" || true
  # The last broker standing waits for a controller quorum that is gone: it is killed. A kill is
  # asynchronous, so wait (bounded) until the process is gone and its ports are closed.
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait_gone "${pids[@]}" || true
  for n in 1 2 3; do rm -f "$RUN_DIR/kafka-$n.pid"; done
}

case "${1:-}" in
  up)
    bash "$INFRA_DIR/fetch.sh"
    stop_nodes
    for p in "${PORTS[@]}" "${CONTROLLERS[@]}"; do
      port_open "$p" && die "port 127.0.0.1:$p is already in use by a process not started by this script"
    done
    for n in 1 2 3; do rm -rf "$DATA_DIR/kafka-$n"; : >"$LOG_DIR/kafka-$n.log" 2>/dev/null || true; done
    t0=$SECONDS
    for n in 1 2 3; do start_node "$n"; done
    # A quorum of controllers (two of three) is needed before any node answers: wait for all in parallel.
    waits=()
    for n in 1 2 3; do wait_node "$n" & waits+=($!); done
    for w in "${waits[@]}"; do wait "$w" || { stop_nodes; die "the cluster did not come up"; }; done
    log "kafka cluster ready in $((SECONDS - t0)) s: 127.0.0.1:${PORTS[0]},127.0.0.1:${PORTS[1]},127.0.0.1:${PORTS[2]}"
    ;;
  start)
    n="${2:-}"
    [[ "$n" =~ ^[123]$ ]] || die "start N: N is 1, 2 or 3"
    live_pid "$RUN_DIR/kafka-$n.pid" >/dev/null && die "kafka-$n is running"
    start_node "$n"
    log "kafka-$n started again on its data"
    ;;
  down) stop_nodes ;;
  *) die "usage: kafka-cluster.sh up | start N | down" ;;
esac
