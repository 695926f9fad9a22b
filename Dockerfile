# The invoice PDF service, and the local payment network it pays on in local runs.
#   docker build -t invoice-pdf-x402 .                                             the service
#   docker build --target payment-network -t invoice-pdf-x402-payment-network .    local test chain
# Compose builds both: docker-compose.yml (local) and docker-compose.production.yml.
#   build            all dependencies; compiles TypeScript to dist/ (npm run build)
#   payment-network  build + the local chain and facilitator (local runs only, never in production)
#   prod-deps        production dependencies only
#   service          Debian's Chromium and fonts, prod-deps' node_modules, build's dist/ (last stage:
#                    the default target). No TypeScript, tsx, anvil or solc in it.
# Debian's docker.io has no BuildKit; the classic builder builds every stage above the target, so
# the stages that only the service needs come after the cheap payment-network stage.

FROM node:20-bookworm-slim AS build
# swagger-ui-dist pulls in @scarf/scarf, whose install script reports every install to scarf.sh
# (also switched off by "scarfSettings" in package.json); npm's own update check is off too.
ENV SCARF_ANALYTICS=false DO_NOT_TRACK=1 NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
WORKDIR /app
COPY package.json package-lock.json ./
# npm install follows the lock (which lists every platform's optional anvil binary) and takes this platform's.
RUN npm install && npm cache clean --force
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY templates ./templates
COPY styles ./styles
COPY data ./data
COPY contracts ./contracts
RUN npm run build

# The local payment network (anvil test chain + x402 facilitator, TEST USDC): local runs only, so it
# keeps the development dependencies (anvil, tsx) of the build stage.
FROM build AS payment-network
COPY scripts/local-payment-network.ts ./scripts/
ENV LOCAL_FACILITATOR_HOST=0.0.0.0 LOCAL_FACILITATOR_PORT=8546 LOCAL_CHAIN_PORT=8545
USER node
EXPOSE 8546
HEALTHCHECK --interval=1s --timeout=2s --start-period=60s --retries=5 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${LOCAL_FACILITATOR_PORT:-8546} && printf 'GET /supported HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
CMD ["node", "--import", "tsx", "scripts/local-payment-network.ts"]

FROM node:20-bookworm-slim AS prod-deps
ENV SCARF_ANALYTICS=false DO_NOT_TRACK=1 NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, without install scripts (none of them needs one) and without the
# optional ones (typescript, an optional peer of viem's type helpers; uglify-js, for Handlebars'
# precompiler CLI). Type declarations, TypeScript sources and source maps are never loaded by
# node: they are dropped here, in a stage whose layers do not ship.
RUN npm install --omit=dev --omit=optional --ignore-scripts \
 && npm cache clean --force \
 && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \) -delete

FROM node:20-bookworm-slim AS service
COPY docker/dpkg-lean.cfg /etc/dpkg/dpkg.cfg.d/lean
# Chromium's headless shell prints the PDFs (the full browser is not needed, and it makes network
# requests of its own at launch; see src/render/chromiumPath.ts). The fonts cover the 14 label
# languages and more: Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai and the other
# scripts of fonts-noto-core, Chinese and Japanese (Noto Sans CJK), the fullwidth yen sign
# (IPAGothic) and the symbols Noto Sans lacks (DejaVu Sans).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium-headless-shell fonts-noto-core fonts-noto-cjk fonts-ipafont-gothic fonts-dejavu-core \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
 && ! find /usr/lib /usr/bin -type f \( -name '*.so*' -o -perm -u+x \) -exec ldd {} + 2>/dev/null | grep 'not found'
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell \
    CHROMIUM_SANDBOX=off \
    TMPDIR=/tmp

# Chromium's own sandbox needs user namespaces that Docker's default seccomp profile denies, so it
# runs with --no-sandbox here (CHROMIUM_SANDBOX=off); the page itself is offline, JavaScript is
# off and content only ever arrives by Page.setDocumentContent (no request is made). The process
# runs as the unprivileged user.
USER node
EXPOSE 8080
# Every second, so that a fresh container reports healthy about a second after it listens (Debian's
# Docker 20.10 has no --start-interval for a faster pace during start-up only). The check is bash's
# /dev/tcp, a few milliseconds, where `node -e fetch(…)` would start a 40 MB process each time.
HEALTHCHECK --interval=1s --timeout=2s --start-period=30s --retries=5 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
CMD ["node", "dist/src/main.js"]
