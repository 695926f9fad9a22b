# The invoice PDF service: Node 20 LTS on Debian bookworm with Debian's Chromium and fonts.
# Build: docker build -t invoice-pdf-x402 .      Run: see docker-compose.yml and the README.
FROM node:20-bookworm-slim

# Chromium's headless shell prints the PDFs (the full browser is not needed, and it makes network
# requests of its own at launch; see src/render/chromiumPath.ts). The fonts cover Latin, Greek,
# Cyrillic, Arabic, Hebrew, Devanagari, CJK and every currency symbol we print (the fullwidth yen
# sign comes from IPAGothic).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium-headless-shell fonts-noto-core fonts-dejavu-core fonts-ipafont-gothic fonts-noto-cjk ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
# tsx runs the TypeScript sources directly, so only production dependencies are needed.
# (npm install, not npm ci: see scripts/setup.mjs on the platform-specific anvil packages.)
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY src ./src
COPY templates ./templates
COPY styles ./styles
COPY contracts ./contracts
COPY data ./data
COPY scripts ./scripts

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
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
