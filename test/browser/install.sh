#!/usr/bin/env bash
# The browser the panel's tests drive (test/browser/*.browser.test.ts): Debian's chromium, headless,
# driven by playwright-core (no browser download from a CDN). Idempotent; .ci/run calls it.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=''
[ "$(id -u)" -eq 0 ] || SUDO='sudo'
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
