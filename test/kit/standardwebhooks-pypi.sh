#!/usr/bin/env bash
# Verifies captured deliveries with the PyPI `standardwebhooks` package (the Standard Webhooks reference
# library for Python), installed on first use into .cache/standardwebhooks-venv, pinned.
# Cases come on stdin in the kit's line format (kit/verifiers/README.md); one line per case on stdout.
set -euo pipefail
cd "$(dirname "$0")/../.."

SW_VERSION=1.1.0
VENV=.cache/standardwebhooks-venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('standardwebhooks') != '$SW_VERSION')" 2>/dev/null; then
  python3 -m venv "$VENV" >&2 || { echo "standardwebhooks: python3 -m venv failed" >&2; exit 2; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "standardwebhooks==$SW_VERSION" >&2 || { echo "standardwebhooks: pip install failed" >&2; exit 2; }
fi
exec "$VENV/bin/python" test/kit/standardwebhooks_pypi.py
