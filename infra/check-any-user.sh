#!/usr/bin/env bash
# Starts the infrastructure as a newcomer would: from a clone in a private directory (`mktemp -d`,
# mode 700), as root and as a user that is not root. Each run must bring every server up (up.sh waits
# until each answers), then the cluster stack's three brokers beside them (kafka-cluster.sh), and
# leave nothing running after down.sh. The fetched servers are copied from this
# checkout's .cache, where fetch.sh then finds them built from the same inputs: a minute, not a build.
# As root (CI) it creates the unprivileged user `switch-ci` when missing; as any other user it runs
# that user's case only. Ports of its own (23092, 23093, 23081, 23017, 23432): the shared instance, the
# stack and the drills may be running.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for part in bin/ferretdb kafka apicurio; do
  [ -e "$repo/.cache/$part" ] || { echo "check-any-user: .cache/$part is missing: run bash infra/fetch.sh first" >&2; exit 1; }
done
ports=(KAFKA_PORT=23092 KAFKA_CONTROLLER_PORT=23093 SCHEMA_REGISTRY_PORT=23081 MONGO_PORT=23017 PG_PORT=23432)
# The cluster stack's three brokers (infra/kafka-cluster.sh) start beside them, in the same state dir.
cluster_ports=(KAFKA_CLUSTER_PORTS=23301,23302,23303 KAFKA_CLUSTER_CONTROLLER_PORTS=23311,23312,23313)
CI_USER=switch-ci

# as USER CMD...: CMD as USER (this process's user: as is), with this PATH (java, mvn and go are checked).
as() {
  local user=$1
  shift
  if [ "$user" = "$(id -un)" ]; then "$@"; else runuser -u "$user" -- env PATH="$PATH" HOME="$(getent passwd "$user" | cut -d: -f6)" "$@"; fi
}

check() {
  local user=$1 dir clone
  dir="$(mktemp -d)" # mode 700: no other user can traverse it
  clone="$dir/switch"
  git clone -q "$repo" "$clone"
  mkdir -p "$clone/.cache"
  cp -a "$repo/.cache/bin" "$repo/.cache/kafka" "$repo/.cache/apicurio" "$clone/.cache/"
  [ "$user" = "$(id -un)" ] || chown -R "$user" "$dir"
  echo "check-any-user: $user, clone in $dir (mode $(stat -c %a "$dir"))"
  local ok=0
  if as "$user" env "${ports[@]}" bash "$clone/infra/up.sh" >"$dir/up.log" 2>&1; then ok=1; else tail -n 30 "$dir/up.log" >&2; fi
  if [ "$ok" = 1 ] && ! as "$user" env "${cluster_ports[@]}" bash "$clone/infra/kafka-cluster.sh" up >"$dir/cluster.log" 2>&1; then
    ok=0
    tail -n 30 "$dir/cluster.log" >&2
  fi
  as "$user" bash "$clone/infra/down.sh" >"$dir/down.log" 2>&1 || tail -n 10 "$dir/down.log" >&2
  local p cluster_list="${cluster_ports[*]#*=}"
  for p in "${ports[@]#*=}" ${cluster_list//,/ }; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "check-any-user: 127.0.0.1:$p still answers after down.sh" >&2
      ok=0
    fi
  done
  [ "$ok" = 1 ] && rm -rf "$dir"
  [ "$ok" = 1 ] && echo "check-any-user: $user: up and down from a private clone" || echo "check-any-user: $user: FAILED (logs in $dir)" >&2
  [ "$ok" = 1 ]
}

status=0
check "$(id -un)" || status=1
if [ "$(id -u)" -eq 0 ]; then
  id "$CI_USER" >/dev/null 2>&1 || useradd --system --create-home --shell /bin/bash "$CI_USER"
  check "$CI_USER" || status=1
fi
exit $status
