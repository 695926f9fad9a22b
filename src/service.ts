import { createRedisThemeStore } from './themes/themeStore.js';
import { createRedisFontStore } from './themes/fontStore.js';
import { createApp, type AppService } from './app.js';
import type { ComputePool } from './compute/computePool.js';
import type { Config } from './config.js';
import { paymentDependencies } from './http/paymentDependencies.js';
import type { BucketStore } from './http/rateLimit/bucketStore.js';
import { createRedisBucketStore } from './http/rateLimit/redisBucketStore.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { Payments } from './payment/startPayments.js';
import type { Renderer } from './render/renderer.js';

export interface ServiceParts {
  config: Config;
  logger: Logger;
  lifecycle: Lifecycle;
  payments: Pick<Payments, 'processor' | 'terms' | 'facilitatorProbe' | 'receipts' | 'signIn' | 'trial'>;
  renderer: Renderer;
  metrics?: Metrics;
  /** Where the rate-limit buckets live; default: Redis with REDIS_URL, else in memory (createApp's). */
  buckets?: BucketStore;
  /** A compute pool its owner closes (AppDependencies.compute); default: the app's own. */
  compute?: ComputePool;
}

/**
 * The production wiring of the app: the paid route renders with the renderer (whose admission
 * turns a paid request away before verify when it is full), payments go through the processor,
 * readiness asks the renderer the question its admission asks. main.ts serves it; the end-to-end
 * tests build exactly this.
 */
export function createService(parts: ServiceParts): AppService {
  const { config, logger, lifecycle, payments, renderer, metrics } = parts;
  metrics?.watchRenderer(() => ({ ...renderer.stats(), poolSize: config.RENDER_POOL_SIZE }));
  // Several instances share REDIS_URL: their rate limits are one limit, kept there too.
  const buckets =
    parts.buckets ??
    (config.REDIS_URL
      ? createRedisBucketStore({ url: config.REDIS_URL, log: (line) => logger.warn(line) })
      : undefined);
  // Themes put by PUT /v1/themes: in Redis too, so that every instance knows every theme id.
  const themes = config.REDIS_URL ? createRedisThemeStore({ url: config.REDIS_URL }) : undefined;
  const fonts = config.REDIS_URL ? createRedisFontStore({ url: config.REDIS_URL }) : undefined;
  // Design packages put by PUT /v1/templates: the same kind of store, under keys of their own.
  const templates = config.REDIS_URL
    ? createRedisThemeStore({ url: config.REDIS_URL, keyPrefix: 'invoice-pdf-x402:template:' })
    : undefined;
  const service = createApp({
    config,
    logger,
    ...(buckets ? { buckets } : {}),
    ...(parts.compute ? { compute: parts.compute } : {}),
    ...(themes ? { themes } : {}),
    ...(fonts ? { fonts } : {}),
    ...(templates ? { templates } : {}),
    renderer,
    ...(metrics ? { metrics } : {}),
    // Development preview (PREVIEW=on): prints with this renderer, bypassing payment.
    preview: { renderer },
    payment: paymentDependencies(payments, lifecycle, {
      onSignInEvent: (event, details) => logger.info({ signIn: event, ...details }, `sign-in ${event}`),
    }),
    readiness: async () => {
      const checks = {
        browser: renderer.ready(),
        queue: renderer.hasRoom(),
        not_draining: !lifecycle.draining,
        facilitator: await payments.facilitatorProbe.reachable(),
      };
      return { ready: Object.values(checks).every(Boolean), checks };
    },
  });
  return {
    ...service,
    close: async () => {
      await Promise.all([service.close(), buckets?.close(), themes?.close(), fonts?.close(), templates?.close()]);
    },
  };
}
