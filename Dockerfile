# syntax=docker/dockerfile:1
# The service on Node 24 with Debian's Chromium for website scans, running as a non-root user.
# Stage 1 installs the production dependencies; stage 2 is the slim runtime.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The project's own install steps (the PGlite template, the banner bundles) need the sources: they run in stage 2.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# Chromium for scans (the scanner prefers it to the one inside the npm package) and fonts for it.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates \
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
# A first start on the embedded database copies this instead of running initdb; the banner's
# browser bundles are built once here rather than at the first start.
RUN node scripts/pglite-template.ts \
 && node scripts/build-banner.ts \
 && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The service handles SIGTERM itself: it finishes requests in flight, then exits.
CMD ["node", "bin/consent-config.js", "serve"]
