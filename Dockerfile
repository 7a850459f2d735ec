# syntax=docker/dockerfile:1
# The service on Node 24 with Debian's Chromium for website scans, running as the non-root user `node`.
# Stage 1 installs the production dependencies; stage 2 is the slim runtime.
# CI replays both stages without Docker, as a non-root user, on both databases
# (scripts/replay-runtime-stage.ts): a change here is replayed there.

# Both stages start from the same base image, pinned by digest so that a rebuild gets the same
# system: node:24-bookworm-slim as published for Node 24.18.0. No registry is reachable where this
# file is written; the digest is the one public Dockerfiles pin for that release. To move on, take
# the new digest from `docker buildx imagetools inspect node:24-bookworm-slim` (or let Dependabot's
# docker ecosystem do it) and change both lines.
FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The project's own install steps (the PGlite template, the banner bundles) need the sources: they run in stage 2.
# Two dependencies are not kept whole. /docs serves one file of @scalar/api-reference, its
# browser bundle (with its source map), which carries everything it needs; the rest of the package
# and its dependencies (Vue, the `ai` SDK, TypeScript: about 300 MB) are for building with it. Its
# package.json and entry file stay, so that Node still resolves the package. @sparticuz/chromium
# (67 MB) is the Chromium of machines without one; this image has Debian's (CHROME_PATH).
# node_modules: 626 MB → 279 MB.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && tar -cf scalar.tar -C node_modules/@scalar/api-reference \
      package.json dist/index.js dist/browser/standalone.js dist/browser/standalone.js.map \
 && npm uninstall --no-save --omit=dev --ignore-scripts --no-audit --no-fund @scalar/api-reference @sparticuz/chromium \
 && mkdir -p node_modules/@scalar/api-reference \
 && tar -xf scalar.tar -C node_modules/@scalar/api-reference \
 && rm scalar.tar

FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d AS runtime
# Chromium for scans (the scanner prefers it to the one inside the npm package), fonts for it, and
# tini, the init process: it hands docker stop's SIGTERM to the service and reaps the processes
# Chromium leaves behind, which Node as process 1 would not.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data \
    CHROME_PATH=/usr/bin/chromium \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY rest-adapter ./rest-adapter
COPY scripts/pglite-template.ts scripts/build-banner.ts ./scripts/
# A first start on the embedded database copies this template (readable by every user) instead of
# running initdb; the banner's browser bundles are built once here rather than at the first start.
# /data is the service user's alone.
RUN node scripts/pglite-template.ts \
 && node scripts/build-banner.ts \
 && mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME ["/data"]
EXPOSE 4000
# The one health check, compose's too. /healthz, not /readyz: the service listens only once its
# database is open and migrated, so an answer means it started; what restarts or replaces an
# unhealthy container (Swarm, ECS) must not do so for a database outage or a scanner's browser,
# which /readyz reports to load balancers.
HEALTHCHECK --interval=10s --timeout=3s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini is process 1 here, so compose needs no `init: true` (which would put Docker's init in front of it).
# The service handles SIGTERM itself: it finishes requests in flight, then exits.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "bin/consent-config.js", "serve"]
