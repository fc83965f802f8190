#!/usr/bin/env bash
# Writes the Prometheus Operator's copy of the rules, deploy/k8s/base/monitoring/prometheusrule.yaml,
# from the plain rule file deploy/prometheus/alerts.yaml (the source: promtool checks it).
#   bash deploy/prometheus/render-prometheusrule.sh            # rewrite the generated file
#   bash deploy/prometheus/render-prometheusrule.sh OUT.yaml   # write elsewhere
# The rule file's groups go under spec: verbatim, indented by two spaces; its top-level comments
# (lines starting with '#') are left out. No YAML library needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/alerts.yaml"
out="${1:-$here/../k8s/base/monitoring/prometheusrule.yaml}"
{
  cat <<'HEADER'
# GENERATED from deploy/prometheus/alerts.yaml by deploy/prometheus/render-prometheusrule.sh.
# Do not edit: change alerts.yaml and run the script (test/deploy/monitoring.test.ts fails when they differ).
# Add the label your Prometheus selects rules by (ruleSelector, e.g. release: kube-prometheus-stack)
# in the overlay.
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: switch-pagos
  labels:
    app.kubernetes.io/name: switch-pagos
spec:
HEADER
  sed -e '/^#/d' -e 's/^\(.\)/  \1/' "$src"
} > "$out.tmp"
mv "$out.tmp" "$out"
