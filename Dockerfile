# Vigil: one image with the server, the built client and the agent program it hands out.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json nest-cli.json tsconfig.json ./
COPY proto/package.json proto/
COPY server/package.json server/
COPY client/package.json client/
COPY agent/package.json agent/
RUN npm ci
COPY proto proto
COPY server server
COPY client client
COPY agent agent
RUN npm run build && npm prune --omit=dev
# The PostgreSQL package's lib/ symlinks come from a postinstall npm may skip; make them now, while node_modules is
# writable (the final image runs as the unprivileged `node` user, which also runs the embedded PostgreSQL).
RUN node -e "require('./server/dist/database/embedded/binaries').findBinaries()"

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
# Ping monitors run fping. It needs no root: Debian's package gives the binary CAP_NET_RAW (in Docker's default set).
# Browser monitors drive Debian's Chromium (about 300 MB more): `--build-arg BROWSER_CHECKS=0` leaves it out.
ARG BROWSER_CHECKS=1
RUN apt-get update && apt-get install -y --no-install-recommends fping $([ "$BROWSER_CHECKS" = 1 ] && echo chromium) \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/proto/package.json proto/
COPY --from=build /app/proto/dist proto/dist
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/client/dist client/dist
COPY --from=build /app/agent/dist agent/dist
COPY --from=build /app/agent/install agent/install
RUN mkdir -p /data && chown node:node /data
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
USER node
CMD ["node", "server/dist/main.js"]
