#!/usr/bin/env bash
# Download/build everything infra/up.sh runs, into $REPO/.cache. Only Maven Central and the
# Go module proxy are used (via ~/.m2 and the Go module/build caches). Each part is skipped
# when its output exists and was made from the same inputs, so a warm run takes ~0 s.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Maven's output goes to a file and is shown only when it fails (quiet mode still prints
# ANSI resets on this Maven).
mvn_q() {
  local out="$CACHE/.mvn-$$.log"
  # Run from .cache so a pom.xml in the caller's directory is never picked up.
  if ! (cd "$CACHE" && mvn -B -q -Dstyle.color=never "$@") >"$out" 2>&1; then
    cat "$out" >&2
    rm -f "$out"
    die "mvn $* failed"
  fi
  rm -f "$out"
}
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

command -v java >/dev/null || die "java (JDK 17) not found"
command -v javac >/dev/null || die "javac (JDK 17) not found"
command -v mvn >/dev/null || die "mvn not found"
command -v go >/dev/null || die "go not found"
command -v git >/dev/null || die "git not found (it applies infra/ferretdb/*.patch): install it with \`sudo apt-get install -y git\`"

mkdir -p "$CACHE"

fetch_kafka() {
  local stamp="$CACHE/kafka/.stamp" want
  want="kafka=$KAFKA_VERSION $(inputs_hash "$INFRA_DIR/kafka/pom.xml" "$INFRA_DIR/kafka/KafkaReady.java")"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$KAFKA_PROBE_DIR/KafkaReady.class" ]; then
    log "kafka $KAFKA_VERSION: cached"
    return
  fi
  log "kafka $KAFKA_VERSION: resolving classpath from Maven Central"
  rm -rf "$KAFKA_LIBS" "$KAFKA_PROBE_DIR" "$stamp"
  mkdir -p "$KAFKA_LIBS" "$KAFKA_PROBE_DIR"
  mvn_q -f "$INFRA_DIR/kafka/pom.xml" "$DEP_PLUGIN:copy-dependencies" \
    -Dkafka.version="$KAFKA_VERSION" -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIBS"
  [ -f "$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar" ] || die "kafka_2.13-$KAFKA_VERSION.jar missing after mvn"
  javac -nowarn -d "$KAFKA_PROBE_DIR" -cp "$KAFKA_LIBS/*" "$INFRA_DIR/kafka/KafkaReady.java"
  echo "$want" >"$stamp"
  log "kafka $KAFKA_VERSION: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars in ${KAFKA_LIBS#"$REPO"/}"
}

fetch_apicurio() {
  local stamp="$APICURIO_HOME/.stamp" dl="$CACHE/apicurio/dl"
  local tgz="apicurio-registry-app-$APICURIO_VERSION-all.tar.gz"
  if [ -f "$stamp" ]; then
    log "apicurio $APICURIO_VERSION: cached"
    return
  fi
  log "apicurio $APICURIO_VERSION: downloading $tgz from Maven Central"
  rm -rf "$APICURIO_HOME" "$dl"
  mkdir -p "$APICURIO_HOME" "$dl"
  mvn_q "$DEP_PLUGIN:copy" -Dartifact="io.apicurio:apicurio-registry-app:$APICURIO_VERSION:tar.gz:all" \
    -DoutputDirectory="$dl"
  tar -xzf "$dl/$tgz" -C "$APICURIO_HOME"
  rm -rf "$dl"   # ~/.m2 keeps the tarball
  if [ ! -f "$APICURIO_HOME/quarkus-run.jar" ] && ! compgen -G "$APICURIO_HOME/*-runner.jar" >/dev/null; then
    die "no quarkus-run.jar or *-runner.jar in $tgz"
  fi
  date -u +%FT%TZ >"$stamp"
}

# FerretDB is built from the Go module proxy's v1.24.2 with the patches in infra/ferretdb/*.patch,
# applied in name order: unified diffs, each with a header saying the MongoDB behaviour it restores,
# the upstream issue it answers, and the test that shows the behaviour equals MongoDB's
# (infra/README.md, "What the FerretDB build patches"). Each is checked with `git apply --check` before
# it is applied, so a changed FerretDB source fails the build at once, naming the patch.
# The build uses a patched copy of the module (Go refuses overlays of files in the module cache)
# through a `replace` in a copy of go.mod; infra/ferretdb itself is untouched.
FERRETDB_PATCHES=("$INFRA_DIR"/ferretdb/*.patch)
ferretdb_patched_modfile() {
  local dir work="$CACHE/ferretdb-patched" patch
  dir="$(cd "$INFRA_DIR/ferretdb" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go mod download -json github.com/FerretDB/FerretDB | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [ -f "$dir/go.mod" ] || { echo "FerretDB module not found in the module cache" >&2; return 1; }
  rm -rf "$work" && mkdir -p "$work" && cp -R "$dir" "$work/FerretDB" && chmod -R u+w "$work/FerretDB"
  for patch in "${FERRETDB_PATCHES[@]}"; do
    # GIT_CEILING_DIRECTORIES: the copy lies inside this clone, whose repository must not be taken
    # for the one the paths of the patch are relative to.
    (cd "$work/FerretDB" && GIT_CEILING_DIRECTORIES="$work" git apply --check "$patch" && GIT_CEILING_DIRECTORIES="$work" git apply "$patch") ||
      { echo "${patch#"$REPO"/} does not apply to FerretDB's source: the source changed, rework the patch" >&2; return 1; }
  done
  cp "$INFRA_DIR/ferretdb/go.mod" "$work/go.mod" && cp "$INFRA_DIR/ferretdb/go.sum" "$work/go.sum"
  printf '\nreplace github.com/FerretDB/FerretDB => %s\n' "$work/FerretDB" >>"$work/go.mod"
  echo "$work/go.mod"
}

fetch_ferretdb() {
  local stamp="$FERRETDB_BIN.stamp" want
  want="$(go env GOVERSION) $(inputs_hash "$INFRA_DIR/ferretdb/main.go" "$INFRA_DIR/ferretdb/go.mod" "$INFRA_DIR/ferretdb/go.sum" "${FERRETDB_PATCHES[@]}")"
  if [ -x "$FERRETDB_BIN" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    log "ferretdb: cached"
    return
  fi
  log "ferretdb: building (cold Go cache: ~2 min on 2 cores)"
  mkdir -p "$(dirname "$FERRETDB_BIN")"
  local modfile
  modfile="$(ferretdb_patched_modfile)" || die "could not patch FerretDB's source (infra/ferretdb/*.patch)"
  # -mod=readonly: use the committed go.sum, never rewrite go.mod; GOTOOLCHAIN=local: no toolchain download.
  (cd "$INFRA_DIR/ferretdb" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly \
    go build -trimpath -buildvcs=false -modfile "$modfile" -o "$FERRETDB_BIN.tmp" .)
  mv -f "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
  echo "$want" >"$stamp"
  log "ferretdb: built ${FERRETDB_BIN#"$REPO"/}"
}

# PostgreSQL (FerretDB's default backend) comes from Debian's packages, not from .cache: install it
# when its binaries are missing (as root; any other user is told the command). The package also
# creates the `postgres` user the cluster runs as under root.
ensure_postgresql() {
  if [ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/initdb" ] && id "$PG_USER" >/dev/null 2>&1; then
    log "postgresql: $PG_BIN"
    return
  fi
  command -v apt-get >/dev/null || die "PostgreSQL 15 is not in $PG_BIN and there is no apt-get: install it, or set PG_BIN"
  [ "$(id -u)" = 0 ] || die "PostgreSQL 15 is not in $PG_BIN: install it with \`sudo apt-get install -y postgresql-15\` (or set PG_BIN)"
  log "postgresql: not in $PG_BIN; apt-get install postgresql-15"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends postgresql-15 >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends postgresql-15 >&2; } ||
    die "apt-get install postgresql-15 failed"
  [ -x "$PG_BIN/postgres" ] || die "postgresql-15 installed, but $PG_BIN/postgres is missing (set PG_BIN)"
}

# `fetch.sh kafka`: the broker's classpath only (infra/kafka/secure-broker.sh needs nothing else).
if [ "${1:-}" = kafka ]; then
  fetch_kafka
  exit 0
fi

# The Go build is CPU-bound and the Maven steps are network-bound: overlap them.
go_log="$CACHE/.fetch-ferretdb.log"
fetch_ferretdb >"$go_log" 2>&1 &
go_pid=$!
# If a Maven step fails (set -e), still wait for the Go build so nothing is left behind.
trap 'wait "$go_pid" 2>/dev/null; cat "$go_log" >&2 2>/dev/null; rm -f "$go_log"' EXIT
ensure_postgresql
fetch_kafka
fetch_apicurio
go_rc=0
wait "$go_pid" || go_rc=$?
trap - EXIT
cat "$go_log" >&2
rm -f "$go_log"
[ "$go_rc" = 0 ] || die "ferretdb build failed"
log "fetch done"
