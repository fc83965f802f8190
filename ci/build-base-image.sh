#!/usr/bin/env bash
# For machines that reach Debian's mirror and the npm registry but no container registry: builds a
# stand-in for node:20-bookworm-slim (Debian 12 minbase + this machine's Node 20 binary + npm 10.8.2,
# the npm the official image ships) and tags it under that name, so `ci/build-image.sh` builds the
# Dockerfile unchanged. Root, buildah and debootstrap required (`apt-get install buildah debootstrap`).
#
#   bash ci/build-base-image.sh [tag]     (default: docker.io/library/node:20-bookworm-slim)
#
# Production images should use the official base from a registry mirror, pinned by digest.
set -euo pipefail

TAG="${1:-docker.io/library/node:20-bookworm-slim}"
NODE_BIN="$(command -v node)"
NPM_VERSION=10.8.2
export STORAGE_DRIVER="${STORAGE_DRIVER:-vfs}" BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"

case "$("$NODE_BIN" -v)" in v20.*) ;; *) echo "need Node 20 on this machine, found $("$NODE_BIN" -v)" >&2; exit 1 ;; esac
work="$(mktemp -d /var/tmp/node-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "== debootstrap bookworm (minbase + libstdc++6, ca-certificates)"
debootstrap --variant=minbase --include=libstdc++6,ca-certificates bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log"; exit 1; }

echo "== node $("$NODE_BIN" -v) and npm $NPM_VERSION in /usr/local, as in the official image"
install -m 0755 "$NODE_BIN" "$rootfs/usr/local/bin/node"
(cd "$work" && npm pack "npm@$NPM_VERSION" --silent >/dev/null)
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb
chroot "$rootfs" /usr/local/bin/node -e 'process.exit(0)'

echo "== commit $TAG"
ctr="$(buildah from scratch)"
buildah add "$ctr" "$rootfs/" / >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$ctr"
buildah commit --rm "$ctr" "$TAG" >/dev/null
echo "tagged $TAG"
