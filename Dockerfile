# Wellrest on PostgreSQL: docker compose up (compose.yaml), or build this image and give it DATABASE_URL.
# Stage 1 builds every package; stage 2 carries only what runs, as an unprivileged user.

FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 NO_UPDATE_NOTIFIER=1
COPY package.json package-lock.json lerna.json tsconfig.base.json tsconfig.json ./
COPY packages/core/package.json packages/core/
COPY packages/api/package.json packages/api/
COPY packages/console/package.json packages/console/
COPY packages/widgets/package.json packages/widgets/
RUN npm ci --no-audit --no-fund
COPY packages packages
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules node_modules
COPY --from=build --chown=node:node /app/packages/core/package.json packages/core/
COPY --from=build --chown=node:node /app/packages/core/dist packages/core/dist
COPY --from=build --chown=node:node /app/packages/api/package.json packages/api/
COPY --from=build --chown=node:node /app/packages/api/dist packages/api/dist
COPY --from=build --chown=node:node /app/packages/console/dist packages/console/dist
COPY --from=build --chown=node:node /app/packages/widgets/dist packages/widgets/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "packages/api/dist/server.js"]
