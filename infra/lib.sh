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
FERRETDB_BIN="$CACHE/bin/ferretdb-sqlite"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
SCHEMA_REGISTRY_PORT="${SCHEMA_REGISTRY_PORT:-8081}"
MONGO_PORT="${MONGO_PORT:-27017}"
INFRA_READY_TIMEOUT="${INFRA_READY_TIMEOUT:-120}"

SERVICES=(kafka apicurio ferretdb)

log() { printf '[infra %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Hash of files, used as a "this is already built from these inputs" stamp.
inputs_hash() { cat "$@" | sha256sum | cut -d' ' -f1; }

# True when a TCP port on 127.0.0.1 accepts connections.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Pid from a pid file if that process is alive and is one of ours (its command line
# mentions this repo's .cache dir, which guards against a recycled pid).
live_pid() {
  local f="$1" pid
  [ -s "$f" ] || return 1
  pid="$(cat "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$CACHE" || return 1
  echo "$pid"
}
