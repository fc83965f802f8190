#!/usr/bin/env bash
# Contract conformance: schemathesis against the embedded switch (`npm start`), every check, the
# document served at /openapi.json. docs/api-conformance.md gives the full run and its figures.
#
#   bash test/contract/schemathesis.sh [MAX_EXAMPLES] [extra `st run` options…]
#
# MAX_EXAMPLES is per operation and phase (default 25: a few hundred cases, under 3 minutes on two
# cores, the CI run). Exit status: schemathesis's (non-zero on any failure).
set -uo pipefail
cd "$(dirname "$0")/../.."

ST_VERSION=4.32.5
VENV=.cache/schemathesis-venv
MAX_EXAMPLES=${1:-25}
shift || true

if [ ! -x "$VENV/bin/st" ] || [ "$("$VENV/bin/st" --version 2>/dev/null)" != "st, version $ST_VERSION" ]; then
  python3 -m venv "$VENV" || { echo "schemathesis: python3 -m venv failed" >&2; exit 2; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$ST_VERSION" || { echo "schemathesis: pip install failed" >&2; exit 2; }
fi

PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
STATE=.cache/schemathesis-state
mkdir -p "$STATE"
LOG="$STATE/switch.log"
npm run build --silent || exit 2
# The run sends thousands of refused requests from one address and key on purpose (negative data):
# the failure and request budgets are raised for it, everything else is the default.
PORT=$PORT HOST=127.0.0.1 SWITCH_STATE_DIR="$STATE" LOG_LEVEL=error SWITCH_LOG_REQUESTS=false \
  SWITCH_FAILURE_LIMIT_PER_IP_PER_MINUTE=10000000 SWITCH_RATE_LIMIT_PER_MINUTE=10000000 \
  node services/embedded/dist/main.js >"$LOG" 2>&1 &
SWITCH_PID=$!
trap 'kill $SWITCH_PID 2>/dev/null; wait $SWITCH_PID 2>/dev/null' EXIT

KEY=""
for _ in $(seq 1 120); do
  KEY=$(sed -n 's/^ *x-switch-key: *\([^ ]*\).*/\1/p' "$LOG" | head -1)
  [ -n "$KEY" ] && break
  kill -0 $SWITCH_PID 2>/dev/null || { echo "the switch did not start:" >&2; cat "$LOG" >&2; exit 2; }
  sleep 0.5
done
[ -n "$KEY" ] || { echo "the switch printed no key" >&2; cat "$LOG" >&2; exit 2; }

# Positive cases never carry the prototype names the API refuses at any depth (test/contract/hooks.py).
export SCHEMATHESIS_HOOKS=hooks
export PYTHONPATH="$PWD/test/contract${PYTHONPATH:+:$PYTHONPATH}"
echo "schemathesis $ST_VERSION against http://127.0.0.1:$PORT/openapi.json, --max-examples $MAX_EXAMPLES"
"$VENV/bin/st" --config-file test/contract/schemathesis.toml run "http://127.0.0.1:$PORT/openapi.json" \
  --checks all \
  --max-examples "$MAX_EXAMPLES" \
  --header "x-switch-key: $KEY" \
  --seed 20261124 \
  --workers 1 \
  --request-timeout 40 \
  --report junit --report-dir .cache/schemathesis-report \
  "$@"
