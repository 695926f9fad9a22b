import Koa from 'koa';
import type { Config } from './config.js';
import { HELPER_OPERATIONS } from './helpers/index.js';
import { createComputePool } from './compute/computePool.js';
import { cors } from './http/cors.js';
import type { PaymentTerms, RateLimitTerms } from './http/discovery/openapi.js';
import { docsAssets, docsRoute } from './http/docs/docsRoutes.js';
import { errorMiddleware } from './http/errorMiddleware.js';
import { favicon } from './http/favicon.js';
import { API_VERSION } from './http/discovery/openapi.js';
import { offloadedRoutes } from './http/offloadedRoutes.js';
import { mcpEndpoint } from './http/mcp/mcpEndpoint.js';
import { mcpServerFactory } from './http/mcp/mcpServer.js';
import { mcpTools } from './http/mcp/mcpTools.js';
import type { PaidCall } from './http/paidCall.js';
import { createMemoryBucketStore, type BucketStore } from './http/rateLimit/bucketStore.js';
import { payerLimit, rateLimit } from './http/rateLimit/rateLimit.js';
import { requestLog } from './http/requestLog.js';
import { buildRouter, fallbacks } from './http/router.js';
import { isPaid, type PaymentGateFactory, type PricedRoute, type RouteSpec } from './http/routeSpec.js';
import { discoveryRoutes } from './http/routes/discoveryRoutes.js';
import { healthRoutes, type Readiness } from './http/routes/healthRoutes.js';
import { helperRoutes } from './http/routes/helperRoutes.js';
import { eInvoiceRoutes } from './http/routes/eInvoiceRoutes.js';
import { inboundRoutes, type InboundRenderer } from './http/routes/inboundRoutes.js';
import { invoiceRoutes, type PdfRenderer } from './http/routes/invoiceRoutes.js';
import { createPreview, type PreviewRenderer } from './http/preview/previewRoutes.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export interface AppDependencies {
  config: Config;
  logger: Logger;
  renderer?: PdfRenderer;
  payment?: { terms: PaymentTerms; gate: PaymentGateFactory; offers(route: PricedRoute): unknown; call?: PaidCall };
  metrics?: Metrics;
  readiness?: () => Promise<Readiness>;
  now?: () => Date;
  /**
   * The development preview (mounted only when config.PREVIEW is on): the renderer that fills its
   * HTML with its own (watched) templates and prints its free PDFs and page images.
   */
  preview?: { renderer?: PreviewRenderer };
  /** Where the rate-limit buckets live (Redis with several instances); default: in memory. */
  buckets?: BucketStore;
}

/** Builds the Koa app from configuration and dependencies without listening; tests use it as is. */
export function createApp(deps: AppDependencies): { app: Koa; routes: readonly PricedRoute[]; close(): void } {
  const { config, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const terms: PaymentTerms = deps.payment?.terms ?? {
    scheme: 'exact',
    network: config.X402_NETWORK,
    asset: config.USDC_ASSET,
    payTo: config.PAY_TO ?? '',
  };

  // A queue of 64 per thread: about a second of maximal free work, beyond which 503 server_busy.
  const pool = config.COMPUTE_THREADS > 0 ? createComputePool({ threads: config.COMPUTE_THREADS, maxQueued: 64 }) : undefined;
  const limits = rateLimitTermsOf(config);
  const buckets = deps.buckets ?? createMemoryBucketStore();
  let routes: PricedRoute[] = [];
  const specs: RouteSpec<any>[] = [
    ...invoiceRoutes(deps.renderer, deps.metrics?.observeRender),
    ...eInvoiceRoutes(deps.renderer, deps.metrics?.observeRender),
    // Inbound e-invoices: read on the compute pool, printed by the renderer (when it prints them).
    ...inboundRoutes(deps.renderer && 'renderInboundPdf' in deps.renderer ? (deps.renderer as InboundRenderer) : undefined, pool, deps.metrics?.observeRender),
    ...helperRoutes(HELPER_OPERATIONS, now),
    docsRoute(() => routes),
    ...discoveryRoutes(() => routes, {
      baseUrl: config.PUBLIC_BASE_URL,
      docsPath: '/docs',
      payment: terms,
      offers: (route) => deps.payment?.offers(route) ?? [],
      rateLimits: limits,
    }),
    ...healthRoutes({ ...(deps.readiness ? { readiness: deps.readiness } : {}), ...(deps.metrics ? { registry: deps.metrics.registry } : {}) }),
  ];
  routes = priceRoutes(specs, config.PRICES);
  // Free CPU work off the event loop, for HTTP and MCP alike (discovery documents are unchanged).
  if (pool) routes = offloadedRoutes(routes, pool, now);

  const router = buildRouter(routes, { bodyLimitBytes: config.BODY_LIMIT_BYTES, paymentGate: deps.payment?.gate });
  const app = new Koa({ proxy: false });
  app.use(requestLog(logger, deps.metrics?.observeRequest));
  app.use(errorMiddleware((error, context) => logger.error({ err: error, ...context }, 'request failed')));
  // Development preview: outside the route table (no discovery document lists it) and before
  // CORS, so other sites can't read its answers.
  const preview =
    config.PREVIEW === 'on'
      ? createPreview({
          renderer: deps.preview?.renderer,
          paperSize: config.PAPER_SIZE,
          bodyLimitBytes: config.BODY_LIMIT_BYTES,
        })
      : undefined;
  if (preview) app.use(preview.middleware);
  app.use(cors());
  app.use(rateLimitFor(config, routes, buckets, limits));
  app.use(docsAssets());
  app.use(favicon());
  // MCP: the same operations as tools, over the same validation, handlers and paid call.
  const tools = mcpTools(routes);
  // A paid tool call's payment is in the JSON-RPC body: it takes from the same payer bucket there.
  const payerTokens = limits.payer ? payerLimit(buckets, limits.payer) : undefined;
  const buildMcpServer = mcpServerFactory({
    tools,
    version: API_VERSION,
    paidCall: deps.payment?.call,
    payerLimit: payerTokens,
    logError: (error, context) => logger.error({ err: error, ...context }, 'tool call failed'),
  });
  app.use(mcpEndpoint(buildMcpServer, config.BODY_LIMIT_BYTES));
  app.use(router.routes());
  app.use(fallbacks(router));
  // Ends what would keep a draining server open: the preview's event streams; stops the compute workers.
  return {
    app,
    routes,
    close: () => {
      preview?.close();
      void pool?.close();
    },
  };
}

/** Probes and scrapes are never limited: a limited client must not make an instance look dead. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The limits in force (burst 0: off), shared by the middleware, the MCP server and the discovery documents. */
function rateLimitTermsOf(config: Config): RateLimitTerms {
  const policy = (name: string, burst: number, perSecond: number) => (burst > 0 ? { name, burst, perSecond } : undefined);
  return {
    client: policy('client', config.RATE_LIMIT_CLIENT_BURST, config.RATE_LIMIT_CLIENT_PER_SECOND),
    payer: policy('payer', config.RATE_LIMIT_PAYER_BURST, config.RATE_LIMIT_PAYER_PER_SECOND),
    exemptPaths: UNLIMITED_PATHS,
  };
}

function rateLimitFor(config: Config, routes: readonly PricedRoute[], store: BucketStore, { client, payer, exemptPaths }: RateLimitTerms) {
  const paid = new Set(routes.filter(isPaid).map((route) => `${route.method} ${route.path}`));
  return rateLimit({
    store,
    ...(client ? { client } : {}),
    ...(payer ? { payer } : {}),
    trustedProxyHops: config.TRUST_PROXY_HOPS,
    exemptPaths,
    isPaid: (method, path) => paid.has(`${method} ${path}`),
  });
}

function priceRoutes(specs: RouteSpec[], prices: Record<string, string>): PricedRoute[] {
  const known = new Set(specs.map((spec) => spec.operationId));
  const unknown = Object.keys(prices).filter((id) => !known.has(id));
  if (unknown.length) {
    throw new Error(`PRICES names unknown operations: ${unknown.join(', ')}. Known: ${[...known].join(', ')}`);
  }
  return specs.map((spec) => ({ ...spec, priceUsd: prices[spec.operationId] ?? '0' }));
}
