#!/usr/bin/env bash
# Started by infra/stack/stack.mjs in a session of its own. When the stack's process dies without
# stopping what it started (SIGKILL, a crash, a closed terminal), this kills the services it ran (their
# process groups, from the pid file the stack keeps) and, when the stack started it, the stack's own
# infrastructure and its MongoDB container. A graceful stop removes the pid file first; this then exits
# without touching anything.
# Args: the stack's pid, the pid file (one service pid per line), the infra state dir ("" when reused),
# the MongoDB container's id ("" without one; testcontainers' reaper removes it too, this at once).
# Polling once a second is enough: it only bounds how long orphans outlive their parent.
set -u
parent=$1 pid_file=$2 infra_state=$3 container=${4:-}
while kill -0 "$parent" 2>/dev/null; do sleep 1; done
[ -f "$pid_file" ] || exit 0
while read -r pid; do
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -KILL -- "-$pid" 2>/dev/null
done <"$pid_file"
rm -f "$pid_file"
[ -z "$infra_state" ] || INFRA_STATE_DIR="$infra_state" bash "$(dirname "${BASH_SOURCE[0]}")/../down.sh"
[ -z "$container" ] || docker rm --force "$container" >/dev/null 2>&1
