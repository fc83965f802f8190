#!/usr/bin/env bash
# A single-node Kafka (KRaft) whose client listeners require what a Strimzi cluster requires: SASL/SCRAM,
# TLS, or both, for the tests of the Kafka client's TLS and SASL settings
# (packages/platform/src/adapters/kafka/security.test.ts). Runs as any user, from a fresh clone: the broker
# classpath comes from `infra/fetch.sh kafka`, the CA and certificates from openssl, made afresh each start.
#
#   bash infra/kafka/secure-broker.sh up     start it, wait until it answers, write <state>/secure-kafka.env
#   bash infra/kafka/secure-broker.sh down   stop it (SIGTERM, SIGKILL after 10 s); idempotent
#
# Listeners on 127.0.0.1 (SECURE_KAFKA_PORT_BASE, default 19400):
#   base+0  CONTROLLER       KRaft controller (plaintext, loopback only)
#   base+1  INTERNAL         plaintext, inter-broker and the readiness probe only
#   base+2  SASL_PLAINTEXT   SCRAM-SHA-256 and SCRAM-SHA-512
#   base+3  SASL_SSL         TLS (server certificate signed by the test CA) + SCRAM-SHA-512 or PLAIN
#   base+4  SSL              TLS with a client certificate required (Strimzi's `authentication: tls`)
# One SCRAM user (SECURE_KAFKA_USER, SECURE_KAFKA_PASSWORD), created at format time (`--add-scram`).
# State (certificates, data, log, pid, env file): SECURE_KAFKA_STATE_DIR, default .cache/secure-kafka.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

BASE="${SECURE_KAFKA_PORT_BASE:-19400}"
STATE="${SECURE_KAFKA_STATE_DIR:-$CACHE/secure-kafka}"
USER_NAME="${SECURE_KAFKA_USER:-switch}"
USER_PASSWORD="${SECURE_KAFKA_PASSWORD:-switch-scram-secret}"
CONTROLLER=$BASE INTERNAL=$((BASE + 1)) SCRAM=$((BASE + 2)) SASL_SSL=$((BASE + 3)) MTLS=$((BASE + 4))
PIDF="$STATE/kafka.pid"
JAVA_OPTS="${SECURE_KAFKA_JAVA_OPTS:--Xms128m -Xmx384m -XX:+UseG1GC -XX:TieredStopAtLevel=1}"

mkdir -p "$STATE"
STATE="$(cd "$STATE" && pwd)"

own_pid() {   # the broker's pid when it runs and is this instance's (its command line names the state dir)
  [ -s "$PIDF" ] || return 1
  local pid; pid="$(head -n1 "$PIDF")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ "$(cmdline_of "$pid")" == *"$STATE"* ]] || return 1
  echo "$pid"
}

down() {
  local pid
  if pid="$(own_pid)"; then
    log "secure kafka: stopping (pid $pid)"
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$PIDF" "$STATE/secure-kafka.env"
}

# certificates DIR: a CA, the broker's certificate for 127.0.0.1/localhost, a client certificate (PEM,
# unencrypted PKCS#8 keys, which the broker's PEM key store and Node both read).
certificates() {
  local d="$1"
  rm -rf "$d" && mkdir -p "$d"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=switch-test-ca" \
    -keyout "$d/ca.key" -out "$d/ca.crt" 2>/dev/null
  issue() {   # issue NAME SUBJECT EXTENSIONS
    openssl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$d/$1.key.rsa" -out "$d/$1.csr" 2>/dev/null
    printf '%s\n' "$3" >"$d/$1.ext"
    openssl x509 -req -in "$d/$1.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 2 \
      -extfile "$d/$1.ext" -out "$d/$1.crt" 2>/dev/null
    openssl pkcs8 -topk8 -nocrypt -in "$d/$1.key.rsa" -out "$d/$1.key"
    rm -f "$d/$1.key.rsa" "$d/$1.csr" "$d/$1.ext"
  }
  issue broker "/CN=localhost" "subjectAltName=IP:127.0.0.1,DNS:localhost"
  issue client "/CN=$USER_NAME" "extendedKeyUsage=clientAuth"
  # The broker's PEM key store: its key, then its certificate chain.
  cat "$d/broker.key" "$d/broker.crt" "$d/ca.crt" >"$d/broker.pem"
  # A CA the broker does not know: a client certificate from it must be refused.
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=stranger-ca" \
    -keyout "$d/stranger.key.rsa" -out "$d/stranger.crt" 2>/dev/null
  openssl pkcs8 -topk8 -nocrypt -in "$d/stranger.key.rsa" -out "$d/stranger.key"
  rm -f "$d/stranger.key.rsa"
}

up() {
  command -v openssl >/dev/null || die "openssl not found"
  bash "$INFRA_DIR/fetch.sh" kafka
  down
  for p in "$CONTROLLER" "$INTERNAL" "$SCRAM" "$SASL_SSL" "$MTLS"; do
    if port_open "$p"; then die "port 127.0.0.1:$p is already in use (SECURE_KAFKA_PORT_BASE moves the five ports)"; fi
  done
  local certs="$STATE/certs" data="$STATE/data" props="$STATE/server.properties"
  certificates "$certs"
  rm -rf "$data" && mkdir -p "$data"
  cat >"$props" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER
controller.listener.names=CONTROLLER
listeners=CONTROLLER://127.0.0.1:$CONTROLLER,INTERNAL://127.0.0.1:$INTERNAL,SASL_PLAINTEXT://127.0.0.1:$SCRAM,SASL_SSL://127.0.0.1:$SASL_SSL,SSL://127.0.0.1:$MTLS
advertised.listeners=INTERNAL://127.0.0.1:$INTERNAL,SASL_PLAINTEXT://127.0.0.1:$SCRAM,SASL_SSL://127.0.0.1:$SASL_SSL,SSL://127.0.0.1:$MTLS
listener.security.protocol.map=CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL
inter.broker.listener.name=INTERNAL
log.dirs=$data

listener.name.sasl_plaintext.sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$USER_NAME="$USER_PASSWORD";
listener.name.ssl.ssl.client.auth=required

ssl.keystore.type=PEM
ssl.keystore.location=$certs/broker.pem
ssl.truststore.type=PEM
ssl.truststore.location=$certs/ca.crt
ssl.endpoint.identification.algorithm=

num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
background.threads=2
log.segment.bytes=16777216
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=8388608
EOF
  local log4j="-Dlog4j.configuration=file:$INFRA_DIR/kafka/log4j.properties"
  log "secure kafka: format (SCRAM user $USER_NAME) and start on 127.0.0.1:$BASE-$MTLS"
  # shellcheck disable=SC2016  # $0..$6 are for the inner bash
  setsid bash -c '
    echo $$ >"$6"
    set -e
    java -Xmx128m -XX:TieredStopAtLevel=1 "$0" -cp "$1/*" kafka.tools.StorageTool format -t "$2" -c "$3" \
      --add-scram "SCRAM-SHA-256=[name=$5,password=$7]" --add-scram "SCRAM-SHA-512=[name=$5,password=$7]" >/dev/null
    exec java $4 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true "$0" -cp "$1/*" kafka.Kafka "$3"
  ' "$log4j" "$KAFKA_LIBS" "MkU3OEVBNTcwNTJENDM2Qk" "$props" "$JAVA_OPTS" "$USER_NAME" "$PIDF" "$USER_PASSWORD" \
    </dev/null >"$STATE/kafka.log" 2>&1 &
  for _ in $(seq 1 50); do [ -s "$PIDF" ] && break; sleep 0.1; done
  [ -s "$PIDF" ] || die "secure kafka did not start (no pid file)"

  local deadline=$((SECONDS + INFRA_READY_TIMEOUT))
  until grep -q "Kafka Server started" "$STATE/kafka.log" 2>/dev/null && port_open "$SCRAM"; do
    if ! own_pid >/dev/null; then tail -n 30 "$STATE/kafka.log" >&2; die "secure kafka exited"; fi
    [ $SECONDS -lt $deadline ] || { tail -n 30 "$STATE/kafka.log" >&2; down; die "secure kafka: not started in ${INFRA_READY_TIMEOUT} s"; }
    sleep 0.2
  done
  java -Xmx128m -XX:TieredStopAtLevel=1 -Dlog4j.configuration="file:$INFRA_DIR/kafka/log4j-probe.properties" \
    -cp "$KAFKA_LIBS/*:$KAFKA_PROBE_DIR" KafkaReady "127.0.0.1:$INTERNAL" "$((deadline - SECONDS > 5 ? deadline - SECONDS : 5))" >&2 ||
    { down; die "secure kafka: not ready"; }
  cat >"$STATE/secure-kafka.env" <<EOF
SECURE_KAFKA_SCRAM=127.0.0.1:$SCRAM
SECURE_KAFKA_SASL_SSL=127.0.0.1:$SASL_SSL
SECURE_KAFKA_MTLS=127.0.0.1:$MTLS
SECURE_KAFKA_PLAINTEXT=127.0.0.1:$INTERNAL
SECURE_KAFKA_USER=$USER_NAME
SECURE_KAFKA_PASSWORD=$USER_PASSWORD
SECURE_KAFKA_CERTS=$certs
EOF
  log "secure kafka ready; wrote $STATE/secure-kafka.env"
  cat "$STATE/secure-kafka.env"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
