import Koa from 'koa';
import type { Config } from './config.js';
import { createComputePool, type ComputePool, type Priority } from './compute/computePool.js';
import { cors } from './http/cors.js';
import type { PaymentTerms, RateLimitTerms } from './http/discovery/openapi.js';
import { docsAssets, docsRoute } from './http/docs/docsRoutes.js';
import { studioFiles, studioRoute } from './http/studio/studioRoutes.js';
import { errorMiddleware } from './http/errorMiddleware.js';
import { favicon } from './http/favicon.js';
import { API_VERSION } from './http/discovery/openapi.js';
import { mcpEndpoint } from './http/mcp/mcpEndpoint.js';
import { mcpServerFactory } from './http/mcp/mcpServer.js';
import { mcpTools } from './http/mcp/mcpTools.js';
import { createMemoryBucketStore, type BucketStore } from './http/rateLimit/bucketStore.js';
import { rateLimit } from './http/rateLimit/rateLimit.js';
import { requestLog } from './http/requestLog.js';
import { buildRouter, fallbacks } from './http/router.js';
import { discoveryRoutes } from './http/routes/discoveryRoutes.js';
import { healthRoutes, type Readiness } from './http/routes/healthRoutes.js';
import { pricedResource } from './http/offerResource.js';
import { operationCaller } from './operations/callOperation.js';
import { isPaid, type Operation, type PdfRenderer, type PricedOperation } from './operations/operation.js';
import {
  runEnvelopeJob,
  runOperationJob,
  type EnvelopeJobResult,
  type OperationJob,
  type OperationJobResult,
} from './operations/operationJobs.js';
import { operationList } from './operations/operationList.js';
import { OWN_SYNTAX_FORMATS, VERIFICATION_CODES } from './einvoice/formats/registry.js';
import { fromPooled, writePdfBatchZip, type PooledBatchFile } from './batch/pdfBatchZip.js';
import type { PaidCall } from './operations/paidCall.js';
import type { Lifecycle } from './lifecycle.js';
import { createMemoryThemeStore, type ThemeStore } from './themes/themeStore.js';
import { createMemoryFontStore, type FontStore } from './themes/fontStore.js';
import { createPreview, type PreviewRenderer } from './http/preview/previewRoutes.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { warmEcdsaThread } from './payment/ecdsaThread.js';

export interface AppDependencies {
  config: Config;
  logger: Logger;
  renderer?: PdfRenderer;
  payment?: {
    terms: PaymentTerms;
    offers(operation: PricedOperation): unknown;
    call?: PaidCall;
    lifecycle?: Lifecycle | undefined;
  };
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
  /** Where PUT /v1/themes keeps themes (Redis with several instances); default: in memory. */
  themes?: ThemeStore;
  /** Where PUT /v1/fonts keeps fonts (Redis with several instances); default: in memory. */
  fonts?: FontStore;
  /** Where PUT /v1/templates keeps design packages (Redis with several instances); default: in memory. */
  templates?: ThemeStore;
  /**
   * The compute pool (createOperationPool) to run bodies on instead of one of the app's own, when
   * COMPUTE_THREADS is above 0: its owner closes it, the app's close() leaves it running. A test
   * process shares one among its apps (test/support/sharedCompute.ts): each worker an app starts
   * takes 0.6 s of CPU to load the operations, and an app starts up to three (shared, paid, unpaid).
   */
  compute?: ComputePool;
}

/** Builds the Koa app from configuration and dependencies without listening; tests use it as is. */
/** The app and what ends it: `endStreams` when a drain begins, `close` once every request is answered. */
export interface AppService {
  app: Koa;
  routes: readonly PricedOperation[];
  /** Ends what would keep a draining server open forever: the preview's event streams. */
  endStreams(): void;
  /** Starts the compute workers; await it before listening (ComputePool.warm). */
  warm(): Promise<void>;
  /**
   * Stops the compute workers (and, in service.ts, the Redis clients). Only after the server has
   * closed: a body still queued for the pool or being parsed on it would otherwise fail (main.ts).
   */
  close(): Promise<void>;
}

export function createApp(deps: AppDependencies): AppService {
  const { config, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const terms: PaymentTerms = deps.payment?.terms ?? {
    scheme: 'exact',
    network: config.X402_NETWORK,
    asset: config.USDC_ASSET,
    payTo: config.PAY_TO ?? '',
  };

  const limits = rateLimitTermsOf(config);
  const buckets = deps.buckets ?? createMemoryBucketStore();
  const themes = deps.themes ?? createMemoryThemeStore();
  const fonts = deps.fonts ?? createMemoryFontStore();
  const templates = deps.templates ?? createMemoryThemeStore();
  let routes: PricedOperation[] = [];
  // Every operation's body is parsed and validated on the compute pool (a free computed one is
  // computed there too), for HTTP and MCP alike; with COMPUTE_THREADS=0, the same job runs inline.
  const pool = config.COMPUTE_THREADS > 0 ? (deps.compute ?? createOperationPool(config.COMPUTE_THREADS)) : undefined;
  const operations = operationList({
    renderer: deps.renderer,
    // A rendered PDF batch's ZIP is written on the pool too (hashing and copying its PDFs).
    assembleZip: pool
      ? async (job) => fromPooled((await pool.run(job, 'high')) as PooledBatchFile)
      : async (job) => writePdfBatchZip(job),
    onRendered: deps.metrics?.observeRender,
    themes,
    fonts,
    fontMaxBytes: config.FONT_MAX_BYTES,
    templates,
    verificationDefaults: verificationDefaultsOf(config),
  });
  const specs: Operation[] = [
    ...operations,
    docsRoute(() => routes),
    studioRoute(),
    ...discoveryRoutes(() => routes, {
      baseUrl: config.PUBLIC_BASE_URL,
      docsPath: '/docs',
      payment: terms,
      offers: (route) => deps.payment?.offers(route) ?? [],
      rateLimits: limits,
    }),
    ...healthRoutes({
      ...(deps.readiness ? { readiness: deps.readiness } : {}),
      ...(deps.metrics ? { registry: deps.metrics.registry } : {}),
    }),
  ];
  routes = priceRoutes(specs, config.PRICES);

  const byId = new Map<string, Operation>(operations.map((operation) => [operation.operationId, operation]));
  const runJob = pool
    ? (job: OperationJob, priority: Priority) => pool.run(job, priority) as Promise<OperationJobResult>
    : async (job: OperationJob) => runOperationJob(byId, job);
  const resourceOf = resourceCache(deps.payment ? routes.filter(isPaid) : []);
  const caller = operationCaller({
    runJob,
    paidCall: deps.payment?.call,
    resourceOf,
    now,
    settings: writerSettingsOf(config),
  });

  const router = buildRouter(routes, {
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    caller,
    lifecycle: deps.payment?.lifecycle,
  });
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
          themes,
          fonts,
        })
      : undefined;
  if (preview) app.use(preview.middleware);
  app.use(cors());
  app.use(rateLimitFor(config, buckets, limits));
  app.use(docsAssets());
  app.use(studioFiles());
  app.use(favicon());
  // MCP: the same operations as tools, over the same validation, handlers and paid call.
  const mcpServer = mcpServerFactory({
    tools: mcpTools(routes),
    version: API_VERSION,
    caller,
    logError: (error, context) => logger.error({ err: error, ...context }, 'tool call failed'),
  });
  // The JSON-RPC envelope is split on the pool too; a paid call's (it carries a payment) ahead of free work.
  const splitEnvelope = (bytes: Buffer | undefined) => {
    const job = { envelope: { bytes, path: ['params', 'arguments'] } };
    return pool
      ? (pool.run(job, bytes?.includes('"x402/payment"') ? 'high' : 'normal') as Promise<EnvelopeJobResult>)
      : Promise.resolve().then(() => runEnvelopeJob(job));
  };
  app.use(mcpEndpoint({ server: mcpServer, splitEnvelope, bodyLimitBytes: config.BODY_LIMIT_BYTES }));
  app.use(router.routes());
  app.use(fallbacks(router));
  return {
    app,
    routes,
    endStreams: () => preview?.close(),
    warm: async () => {
      // A paid request's signer is recovered, and its receipt signed, on a thread of its own (payment/ecdsaThread.ts).
      await Promise.all([pool?.warm(), deps.payment ? warmEcdsaThread() : undefined]);
    },
    close: async () => {
      preview?.close();
      if (!deps.compute) await pool?.close();
    },
  };
}

/** Probes and scrapes are never limited: a limited client must not make an instance look dead. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The limits in force (burst 0: off), shared by the middleware, the MCP server and the discovery documents. */
function rateLimitTermsOf(config: Config): RateLimitTerms {
  const policy = (name: string, burst: number, perSecond: number) =>
    burst > 0 ? { name, burst, perSecond } : undefined;
  return {
    client: policy('client', config.RATE_LIMIT_CLIENT_BURST, config.RATE_LIMIT_CLIENT_PER_SECOND),
    payer: policy('payer', config.RATE_LIMIT_PAYER_BURST, config.RATE_LIMIT_PAYER_PER_SECOND),
    exemptPaths: UNLIMITED_PATHS,
  };
}

function rateLimitFor(config: Config, store: BucketStore, { client, payer, exemptPaths }: RateLimitTerms) {
  return rateLimit({
    store,
    ...(client ? { client } : {}),
    ...(payer ? { payer } : {}),
    trustedProxyHops: config.TRUST_PROXY_HOPS,
    exemptPaths,
  });
}

/** The server's settings that give the formats' verification-code arguments their defaults (format.ts VerificationCodeHook). */
function verificationDefaultsOf(config: Config): Record<string, unknown> {
  return Object.fromEntries(
    VERIFICATION_CODES.flatMap((code) =>
      Object.entries(code.defaults ?? {}).map(([argument, setting]) => [argument, config[setting as keyof Config]]),
    ),
  );
}

/** The server settings the formats' writers declare (OwnSyntaxWriter.settings), as configured: every call carries them. */
function writerSettingsOf(config: Config): Record<string, string | undefined> {
  return Object.fromEntries(
    OWN_SYNTAX_FORMATS.flatMap((format) => format.writer.settings ?? []).map((setting) => {
      const value = config[setting as keyof Config];
      return [setting, value === undefined ? undefined : String(value)];
    }),
  );
}

function priceRoutes(specs: Operation[], prices: Record<string, string>): PricedOperation[] {
  const known = new Set(specs.map((spec) => spec.operationId));
  // Only the operation list's rows are known to the compute workers, which parse every body.
  const listed = new Set(operationList().map((operation) => operation.operationId));
  const unlisted = specs
    .filter((spec) => spec.request && !listed.has(spec.operationId))
    .map((spec) => spec.operationId);
  if (unlisted.length)
    throw new Error(
      `Operations with a request body must be rows of src/operations/operationList.ts: ${unlisted.join(', ')}`,
    );
  const unknown = Object.keys(prices).filter((id) => !known.has(id));
  if (unknown.length) {
    throw new Error(`PRICES names unknown operations: ${unknown.join(', ')}. Known: ${[...known].join(', ')}`);
  }
  return specs.map((spec) => ({ ...spec, priceUsd: prices[spec.operationId] ?? '0' }));
}

/** The compute workers' job module: the operation list's parse and compute (built, a .js beside this .js). */
const OPERATION_WORKER = new URL(
  import.meta.url.endsWith('.ts') ? './operations/operationWorker.ts' : './operations/operationWorker.js',
  import.meta.url,
);

/**
 * The compute pool an app parses and validates its bodies on (and computes free work): `threads`
 * shared workers, and a queue of 64 per thread and priority, about a second of maximal work, beyond
 * which 503 server_busy.
 */
export function createOperationPool(threads: number): ComputePool {
  return createComputePool({ threads, maxQueued: 64, jobModule: OPERATION_WORKER });
}

/**
 * The offer's resource per paid operation, built once: its compacted body schema takes 1 to 35 ms
 * of the main thread per operation. They are built ahead, one operation per turn of the event loop
 * after start, so that the first unpaid requests of a flood (a crawler, an attack) don't build them
 * all at once on the loop /healthz answers on (reliability 11, docs/reliability.md); a request
 * that comes first builds its own.
 */
function resourceCache(paid: readonly PricedOperation[]) {
  const cache = new Map<PricedOperation, ReturnType<typeof pricedResource>>();
  const resourceOf = (operation: PricedOperation) => {
    let resource = cache.get(operation);
    if (!resource) cache.set(operation, (resource = pricedResource(operation)));
    return resource;
  };
  const cold = [...paid];
  const warmNext = () => {
    const next = cold.shift();
    if (!next) return;
    resourceOf(next);
    setImmediate(warmNext).unref();
  };
  setImmediate(warmNext).unref();
  return resourceOf;
}
