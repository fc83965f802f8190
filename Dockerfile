# syntax=docker/dockerfile:1
#
# One image for every service of the switch. The Deployment picks the process with its command:
#   node services/<name>/dist/main.js          gateway, router, bank-sim, notifier, reconciler, panel
#   node services/bank-<name>/dist/src/main.js bank-plaza, bank-bancaribe, bank-activo, bank-bnc
#
#   docker build -t switch-pagos:$(git rev-parse --short HEAD) .
#
# Stages: manifests (package.json files only, so dependency layers are cached until they change),
# build (all dependencies + tsc), prod-deps (npm ci --omit=dev), runtime (prod node_modules + dist
# folders, non-root, no npm cache, no sources, no tests, no bank emulators: each bank's emulator is its
# package's `./emulator` export, for tests and local runs only, and is removed from what ships).

ARG NODE_IMAGE=node:20-bookworm-slim

# --- manifests: every workspace's package.json at its path, plus the lockfile --------------------
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir -p /manifests \
 && cp package.json package-lock.json /manifests/ \
 && find . -name package.json -not -path './package.json' -not -path '*/node_modules/*' \
      -exec cp --parents '{}' /manifests/ ';'

# --- build: full install and TypeScript build -------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /manifests/ ./
# --ignore-scripts: tsc needs no install script (esbuild's and ssh2's belong to the test tooling).
# The optional `npm-ca` secret is a CA bundle for a TLS-intercepting proxy in front of the npm registry
# (`--secret id=npm-ca,src=<bundle>`); it is used for the install only and never lands in a layer.
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npm-ca,required=false \
    if [ -s /run/secrets/npm-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm-ca; fi \
 && npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# patches/ (patch-package; the install above ran no scripts) before the build, so tests and the
# runtime stage's copy of kafkajs carry the same fix.
RUN npx patch-package \
 && npm run build \
 && mkdir -p /out \
 && for d in packages/* services/*; do \
      if [ -d "$d/dist" ]; then mkdir -p "/out/$d" && cp -a "$d/dist" "/out/$d/"; fi; \
      for extra in views assets; do if [ -d "$d/$extra" ]; then cp -a "$d/$extra" "/out/$d/"; fi; done; \
    done \
 && rm -rf /out/services/*/dist/emulator \
 && ! find /out -path '*emulator*' | grep -q .

# --- prod-deps: runtime dependencies only -------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=manifests /manifests/ ./
# Workspaces become symlinks in node_modules/@switch/* to ./packages/* and ./services/*; the runtime stage
# puts each workspace's dist/ beside its package.json so they resolve.
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npm-ca,required=false \
    if [ -s /run/secrets/npm-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm-ca; fi \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund
# kafkajs as patched in the build stage (patches/kafkajs+2.2.4.patch; patch-package is a dev tool).
COPY --from=build /app/node_modules/kafkajs ./node_modules/kafkajs

# --- emulators: a TEST-ONLY image, never the switch's ------------------------------------------------
# The three banks' emulators for the sandbox of the test environment (deploy/k8s/overlays/test,
# Deployment bank-emulators; docs/sandbox.md). Built only on request, as its own image:
#   docker build --target emulators -t switch-pagos-emulators:<tag> .
# It sits before `runtime`, so a plain build still produces the switch image, which never holds an
# emulator (the build stage deletes them from /out and proves it).
FROM ${NODE_IMAGE} AS emulators
RUN groupadd --system --gid 10001 switch \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin switch
WORKDIR /app
COPY --from=prod-deps /app/ ./
COPY --from=build /app/packages/core/dist ./packages/core/dist
COPY --from=build /app/packages/connector-kit/dist ./packages/connector-kit/dist
COPY --from=build /app/packages/platform/dist ./packages/platform/dist
COPY --from=build /app/packages/usecases/dist ./packages/usecases/dist
COPY --from=build /app/services/bank-plaza/dist ./services/bank-plaza/dist
COPY --from=build /app/services/bank-bancaribe/dist ./services/bank-bancaribe/dist
COPY --from=build /app/services/bank-activo/dist ./services/bank-activo/dist
ENV NODE_ENV=production HOST=0.0.0.0
USER 10001:10001
EXPOSE 8585 8243 8443 8444
ENTRYPOINT ["node"]
CMD ["services/bank-plaza/dist/emulator/main.js"]

# --- runtime -------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="switch-pagos" \
      org.opencontainers.image.description="Payments switch for Venezuelan bank rails (all services; pick one with the command)" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

ENV NODE_ENV=production \
    SWITCH_BUS=kafka \
    SWITCH_STORE=mongo

# A fixed numeric user (10001) that owns nothing in the image: the code is root-owned and read-only to
# it, and Kubernetes can verify runAsNonRoot from the numeric USER.
RUN groupadd --system --gid 10001 switch \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin switch \
 && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /opt/yarn-* /usr/local/bin/yarn /usr/local/bin/yarnpkg

WORKDIR /app
COPY --from=prod-deps /app/ ./
COPY --from=build /out/ ./

USER 10001:10001
# gateway: PORT 3000 (merchant API) and OPERATOR_PORT 9100 (/healthz, /readyz, /metrics, /admin/v1);
# the other services: HEALTH_PORT 9101-9108 (/healthz, /readyz, /metrics). Operator and health
# listeners bind 127.0.0.1 unless OPERATOR_HOST / HEALTH_HOST say otherwise (the k8s manifests do).
EXPOSE 3000 9100 9101 9102 9103 9104 9105 9106 9107 9108
# Node runs as PID 1 and handles SIGTERM itself (graceful shutdown within SWITCH_SHUTDOWN_MS); it spawns
# no children, so no init process is needed. Kubernetes replaces this with the Deployment's command.
ENTRYPOINT ["node"]
CMD ["services/gateway/dist/main.js"]
