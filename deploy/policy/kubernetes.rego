# Generic Kubernetes rules, checked by conftest on each object of the rendered overlays
# (test/deploy/manifests.test.ts runs `conftest test` and shows each rule failing a broken manifest).
# The switch's own rules (its services, ports, topics, secrets, monitoring) are in that test.
package main

import rego.v1

workloads := {"Deployment", "StatefulSet", "DaemonSet"}

name := sprintf("%s/%s", [input.kind, input.metadata.name])

pod := input.spec.template.spec if input.kind in workloads

containers contains c if some c in pod.containers

containers contains c if some c in pod.initContainers

# --- Pods: the "restricted" Pod Security Standard, and no API credentials they do not use

deny contains msg if {
	pod
	not pod.securityContext.runAsNonRoot == true
	msg := sprintf("%s: pod securityContext.runAsNonRoot must be true", [name])
}

deny contains msg if {
	pod
	not pod.securityContext.runAsUser > 0
	msg := sprintf("%s: pod securityContext.runAsUser must be a non-zero user id", [name])
}

deny contains msg if {
	pod
	not pod.securityContext.seccompProfile.type == "RuntimeDefault"
	msg := sprintf("%s: pod seccompProfile must be RuntimeDefault", [name])
}

deny contains msg if {
	pod
	not pod.automountServiceAccountToken == false
	msg := sprintf("%s: automountServiceAccountToken must be false (no service uses the Kubernetes API)", [name])
}

deny contains msg if {
	some c in containers
	not c.securityContext.allowPrivilegeEscalation == false
	msg := sprintf("%s: container %s must set allowPrivilegeEscalation: false", [name, c.name])
}

deny contains msg if {
	some c in containers
	not c.securityContext.readOnlyRootFilesystem == true
	msg := sprintf("%s: container %s must set readOnlyRootFilesystem: true", [name, c.name])
}

deny contains msg if {
	some c in containers
	not "ALL" in object.get(c, ["securityContext", "capabilities", "drop"], [])
	msg := sprintf("%s: container %s must drop ALL capabilities", [name, c.name])
}

deny contains msg if {
	some c in containers
	c.securityContext.privileged == true
	msg := sprintf("%s: container %s is privileged", [name, c.name])
}

# --- Resources: requests and limits for CPU and memory, a limit never below its request

deny contains msg if {
	some c in containers
	some kind in ["cpu", "memory"]
	some bound in ["requests", "limits"]
	not c.resources[bound][kind]
	msg := sprintf("%s: container %s has no %s %s", [name, c.name, kind, bound])
}

deny contains msg if {
	some c in containers
	some kind in ["cpu", "memory"]
	units.parse(c.resources.limits[kind]) < units.parse(c.resources.requests[kind])
	msg := sprintf("%s: container %s's %s limit is below its request", [name, c.name, kind])
}

# --- Probes and selectors

deny contains msg if {
	some c in pod.containers
	not c.readinessProbe
	msg := sprintf("%s: container %s has no readinessProbe", [name, c.name])
}

deny contains msg if {
	pod
	some k, v in input.spec.selector.matchLabels
	not input.spec.template.metadata.labels[k] == v
	msg := sprintf("%s: selector %s=%s does not match its pod labels", [name, k, v])
}

# --- Secrets are referenced, never rendered

deny contains msg if {
	input.kind == "Secret"
	msg := sprintf("%s: a rendered Secret: secrets are created apart and referenced (secretKeyRef)", [name])
}

# --- Namespaces enforce the restricted Pod Security Standard

deny contains msg if {
	input.kind == "Namespace"
	not input.metadata.labels["pod-security.kubernetes.io/enforce"] == "restricted"
	msg := sprintf("%s: must enforce the restricted pod security standard", [name])
}

# --- Autoscalers

deny contains msg if {
	input.kind == "HorizontalPodAutoscaler"
	min := object.get(input.spec, "minReplicas", 1)
	not min >= 1
	msg := sprintf("%s: minReplicas %v is below 1", [name, min])
}

deny contains msg if {
	input.kind == "HorizontalPodAutoscaler"
	object.get(input.spec, "minReplicas", 1) > input.spec.maxReplicas
	msg := sprintf("%s: minReplicas is above maxReplicas", [name])
}

# --- Network policies: every egress rule names its destinations and ports

deny contains msg if {
	input.kind == "NetworkPolicy"
	some rule in input.spec.egress
	not count(object.get(rule, "to", [])) > 0
	msg := sprintf("%s: an egress rule without a destination (to) allows every address", [name])
}

deny contains msg if {
	input.kind == "NetworkPolicy"
	some rule in input.spec.egress
	not count(object.get(rule, "ports", [])) > 0
	msg := sprintf("%s: an egress rule without ports allows every port", [name])
}

# --- Ingress: TLS for every host

deny contains msg if {
	input.kind == "Ingress"
	not count(object.get(input.spec, "tls", [])) > 0
	msg := sprintf("%s: no TLS section", [name])
}

deny contains msg if {
	input.kind == "Ingress"
	some rule in input.spec.rules
	not rule.host in {h | some t in input.spec.tls; some h in t.hosts}
	msg := sprintf("%s: host %v is not covered by its TLS section", [name, rule.host])
}
