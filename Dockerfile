# Storyverse's container image (decision 0127). One image for every role: the app (the default), a worker
# (WORKER=only), the migrations (node server/dist/migrate.js) and the admin commands (node server/dist/admin.js).
# With no DATABASE_URL it runs on the embedded PGlite with its data under the /data volume.
#
#   docker build -t storyverse .
#   docker run -d -p 3000:3000 -v storyverse-data:/data storyverse
#
# CI builds it with podman on a stand-in for the base image (scripts/ci-container.sh).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- production dependencies only (the server's; the web app is served as built files) --------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
# No install scripts: the native addons (argon2, sharp) are prebuilt Node-API packages, and the one package
# with a script that matters here (esbuild) is a build tool.
RUN npm ci --omit=dev --workspace server --ignore-scripts --no-audit --no-fund

# --- the build: server to plain JavaScript, and the web app ---------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# --- the image that runs ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE}
# ffmpeg from Debian (kept patched by the distribution) makes the films and reads vendor clips; tini is PID 1,
# passes SIGTERM on to node (which drains: readiness fails, requests and jobs finish) and reaps ffmpeg's
# children.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data \
  && chown node:node /data
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/contract/package.json ./contract/
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/server/drizzle ./server/drizzle
COPY --from=build /app/server/assets ./server/assets
COPY --from=build /app/web/dist ./web/dist
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready means the database answers and the process is not stopping; a stopping container reports unhealthy
# at once, so a proxy that reads health stops sending it requests.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "server/dist/main.js"]
