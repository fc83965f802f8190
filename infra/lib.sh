# Shared settings for infra/*.sh (sourced, not executed).
# shellcheck shell=bash disable=SC2034  # variables are used by the scripts that source this
INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$INFRA_DIR/.." && pwd)"
CACHE="$REPO/.cache"
# Where one running instance keeps its pids, logs, data and env file. Default: .cache itself.
# A second instance (other ports) on the same checkout needs its own, e.g. `npm run stack`
# uses INFRA_STATE_DIR=.cache/stack/infra with KAFKA_PORT=19092 etc. The fetched binaries stay shared.
INFRA_STATE_DIR="${INFRA_STATE_DIR:-$CACHE}"
mkdir -p "$INFRA_STATE_DIR"
INFRA_STATE_DIR="$(cd "$INFRA_STATE_DIR" && pwd)"
RUN_DIR="$INFRA_STATE_DIR/infra-run"
LOG_DIR="$INFRA_STATE_DIR/infra-logs"
DATA_DIR="$INFRA_STATE_DIR/infra-data"
ENV_FILE="$INFRA_STATE_DIR/infra.env"

# shellcheck source=versions.env
. "$INFRA_DIR/versions.env"

KAFKA_LIBS="$CACHE/kafka/libs"
KAFKA_PROBE_DIR="$CACHE/kafka/probe"
APICURIO_HOME="$CACHE/apicurio/apicurio-registry-app-$APICURIO_VERSION"
FERRETDB_BIN="$CACHE/bin/ferretdb"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
SCHEMA_REGISTRY_PORT="${SCHEMA_REGISTRY_PORT:-8081}"
MONGO_PORT="${MONGO_PORT:-27017}"
PG_PORT="${PG_PORT:-27432}"
INFRA_READY_TIMEOUT="${INFRA_READY_TIMEOUT:-120}"
# PostgreSQL 15 from Debian's packages, run as a private cluster. PostgreSQL refuses to run as root:
# as any other user it runs as that user, its data beside the rest of this instance's; as root it runs
# as the `postgres` user the package creates, which may not be able to reach the clone (a home of mode
# 750, any `mktemp -d`), so its data then lives in a directory of its own under /var/tmp, named after
# this instance's state dir (one per instance, wiped at every start like the rest).
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ "$(id -u)" -eq 0 ]; then
  PG_USER=postgres
  PG_HOME="/var/tmp/switch-pagos-pg-$(printf '%s' "$INFRA_STATE_DIR" | sha256sum | cut -c1-16)"
else
  PG_USER="$(id -un)"
  PG_HOME="$DATA_DIR/pg"
fi
PG_DATA="$PG_HOME/data"
PG_SOCKET_DIR="$PG_HOME/socket"
# FerretDB's Go garbage collector: its live heap is a few MB, and at the default (100) collecting it
# took a quarter of FerretDB's CPU under load. 2000 collects once the heap has grown 20 times its live
# size (≈200 MB of RSS under the benchmark, ≈60 MB at 400); it stays proportional to the live heap,
# which a fixed GOMEMLIMIT with GOGC=off would not (a large live heap would make it collect nonstop).
FERRETDB_GOGC="${FERRETDB_GOGC:-2000}"
# FerretDB's Go scheduler runs on one processor (P): with two, on a two-core box that also runs
# PostgreSQL, Kafka and the services, its idle threads spun looking for work and woke each other at
# every network event; with one, FerretDB spent 20 % less CPU per store cycle for the same throughput
# (test/bench/store-cycles.mjs, two alternating runs). Blocking syscalls still hand the P to another
# thread, so one slow PostgreSQL answer does not stall the rest.
FERRETDB_GOMAXPROCS="${FERRETDB_GOMAXPROCS:-1}"
PG_DATABASE=ferretdb

# What up.sh starts; down.sh stops whatever of ALL_SERVICES runs. INFRA_DATABASE=none starts Kafka and
# the registry only: `npm run stack` on a MongoDB container brings its own database (infra/README.md).
case "${INFRA_DATABASE:-ferretdb}" in
  ferretdb) SERVICES=(kafka apicurio postgres ferretdb) ;;
  none) SERVICES=(kafka apicurio) ;;
  *) echo "INFRA_DATABASE=$INFRA_DATABASE: expected ferretdb or none" >&2; exit 1 ;;
esac
# INFRA_KAFKA=none leaves Kafka out: the cluster stack runs three brokers of its own (infra/kafka-cluster.sh).
case "${INFRA_KAFKA:-single}" in
  single) ;;
  none) SERVICES=("${SERVICES[@]:1}") ;;
  *) echo "INFRA_KAFKA=$INFRA_KAFKA: expected single or none" >&2; exit 1 ;;
esac
ALL_SERVICES=(kafka apicurio ferretdb postgres)

log() { printf '[infra %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Hash of files, used as a "this is already built from these inputs" stamp.
inputs_hash() { cat "$@" | sha256sum | cut -d' ' -f1; }

# Waits (up to ~10 s) until none of the given processes is alive; a signal, SIGKILL too, is
# asynchronous, so a stop waits for this before it says the ports are free.
wait_gone() {
  local pid alive
  for _ in $(seq 1 100); do
    alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.1
  done
  return 1
}

# True when a TCP port on 127.0.0.1 accepts connections.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The command line of a live process. A launcher in the middle of exec (a node's bash becoming its
# java) shows an empty one for an instant, as a zombie does for good: an empty one is read again for
# up to half a second before the process counts as gone (a cluster start once failed on that instant,
# "kafka-2 exited" while the node was starting).
cmdline_of() {
  local pid="$1" cmd=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    kill -0 "$pid" 2>/dev/null || return 1
    cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
    [ -n "$cmd" ] && break
    sleep 0.05
  done
  printf '%s' "$cmd"
}

# Pid from a pid file if that process is alive and is one of ours (its command line
# mentions this repo's .cache dir or this instance's state dir, which guards against a recycled pid).
live_pid() {
  local f="$1" pid cmd
  [ -s "$f" ] || return 1
  pid="$(head -n1 "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  cmd="$(cmdline_of "$pid")" || return 1
  [[ "$cmd" == *"$CACHE"* || "$cmd" == *"$INFRA_STATE_DIR"* || "$cmd" == *"$PG_HOME"* ]] || return 1
  echo "$pid"
}
