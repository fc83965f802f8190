#!/usr/bin/env bash
# Builds the switch image from ./Dockerfile and smoke-tests it: the embedded switch starts in it as the
# image's non-root user and answers /healthz (operator port) and an authenticated /switch/v1/bancos.
#
#   bash ci/build-image.sh [tag]        (default tag: switch-pagos:<short git revision>)
#
# Uses docker when an engine answers, else buildah (daemonless: vfs storage, chroot isolation), which
# Debian packages (`apt-get install buildah`). Without registry access set NODE_IMAGE to a local image
# (docs/operations.md, "Building the image without Docker Hub").
set -euo pipefail
cd "$(dirname "$0")/.."

TAG="${1:-switch-pagos:$(git rev-parse --short HEAD 2>/dev/null || echo dev)}"
NODE_IMAGE="${NODE_IMAGE:-node:20-bookworm-slim}"
REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
PORT="${SMOKE_PORT:-3999}"
OPORT="${SMOKE_OPERATOR_PORT:-9199}"   # the operator port: /healthz, /readyz, /metrics, /admin/v1

if docker info >/dev/null 2>&1; then
  ENGINE=docker
elif command -v buildah >/dev/null 2>&1; then
  ENGINE=buildah
  export STORAGE_DRIVER="${STORAGE_DRIVER:-vfs}" BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"
else
  echo "neither a docker engine nor buildah is available" >&2
  exit 1
fi

# A TLS-intercepting proxy in front of the npm registry: hand its CA bundle to the install steps.
NPM_CA_FILE="${NPM_CA_FILE:-${NODE_EXTRA_CA_CERTS:-}}"
secret=()
[ -n "$NPM_CA_FILE" ] && [ -s "$NPM_CA_FILE" ] && secret=(--secret "id=npm-ca,src=$NPM_CA_FILE")

echo "== build $TAG with $ENGINE (base $NODE_IMAGE)"
start=$(date +%s)
if [ "$ENGINE" = docker ]; then
  DOCKER_BUILDKIT=1 docker build "${secret[@]}" --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "REVISION=$REVISION" -t "$TAG" .
else
  buildah build --layers --network host --pull-never "${secret[@]}" --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "REVISION=$REVISION" -t "$TAG" .
fi
echo "built in $(( $(date +%s) - start )) s"

echo "== inspect"
if [ "$ENGINE" = docker ]; then
  user=$(docker image inspect -f '{{.Config.User}}' "$TAG")
  size=$(docker image inspect -f '{{.Size}}' "$TAG")
else
  user=$(buildah inspect -t image -f '{{.OCIv1.Config.User}}' "$TAG")
  size=$(buildah images --format '{{.Size}}' "$TAG" | head -1)
fi
echo "user: $user   size: $size"
[ "$user" = "10001:10001" ] || { echo "image must run as 10001:10001, not '$user'" >&2; exit 1; }

echo "== smoke: embedded switch in the image, as its user"
log=$(mktemp)
if [ "$ENGINE" = docker ]; then
  docker run --rm -d --name switch-smoke --read-only --tmpfs /tmp -p "127.0.0.1:$PORT:$PORT" -p "127.0.0.1:$OPORT:$OPORT" \
    -e SWITCH_BUS=memory -e SWITCH_STORE=memory -e HOST=0.0.0.0 -e PORT="$PORT" -e OPERATOR_HOST=0.0.0.0 -e OPERATOR_PORT="$OPORT" -e SWITCH_STATE_DIR=/tmp/state \
    "$TAG" services/embedded/dist/main.js >/dev/null
  stop() { docker logs switch-smoke >"$log" 2>&1 || true; docker rm -f switch-smoke >/dev/null 2>&1 || true; }
else
  ctr=$(buildah from --pull-never "$TAG")
  buildah run --network host --user 10001:10001 \
    --env SWITCH_BUS=memory --env SWITCH_STORE=memory --env HOST=127.0.0.1 --env PORT="$PORT" --env OPERATOR_HOST=127.0.0.1 --env OPERATOR_PORT="$OPORT" --env SWITCH_STATE_DIR=/tmp/state \
    "$ctr" -- node services/embedded/dist/main.js >"$log" 2>&1 &
  runner=$!
  stop() { kill "$runner" 2>/dev/null || true; wait "$runner" 2>/dev/null || true; buildah rm "$ctr" >/dev/null 2>&1 || true; }
fi
trap stop EXIT

for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$OPORT/healthz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$OPORT/healthz" >/dev/null || { echo "the switch in the image did not become healthy (operator port $OPORT)"; cat "$log"; exit 1; }
# Operator surfaces are not on the merchant port.
mcode=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics")
[ "$mcode" = 404 ] || { echo "GET /metrics on the merchant port answered $mcode (must be 404)"; exit 1; }
[ "$ENGINE" = docker ] && docker logs switch-smoke >"$log" 2>&1
key=$(grep -o 'x-switch-key: *[^ "]*' "$log" | head -1 | sed 's/x-switch-key: *//')
[ -n "$key" ] || { echo "no demo key printed"; cat "$log"; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' -H "x-switch-key: $key" "http://127.0.0.1:$PORT/switch/v1/bancos")
[ "$code" = 200 ] || { echo "GET /switch/v1/bancos answered $code"; cat "$log"; exit 1; }
echo "smoke passed: /healthz on the operator port, /metrics 404 on the merchant port, GET /switch/v1/bancos (200) from the image as 10001:10001"
