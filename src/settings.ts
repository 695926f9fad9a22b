import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { PaymentSettings } from './payment/startPayments.js';
import { createRenderer, type Renderer } from './render/renderer.js';
import { preparedReferences } from './templates/contract/referenceInvoices.js';

/** The content contract's reference invoices, for the print-time check of stored designs. */
export const designReferences = () => preparedReferences().map(({ prepared }) => prepared);

/**
 * What each part gets from the configuration. Kept here, above the parts, so that render/ and
 * payment/ never import the configuration (config.ts reads their defaults, not the other way).
 */
export function startRenderer(config: Config, logger: Logger): Promise<Renderer> {
  return createRenderer({
    ...(config.CHROMIUM_PATH ? { executablePath: config.CHROMIUM_PATH } : {}),
    sandbox: config.CHROMIUM_SANDBOX === 'on',
    poolSize: config.RENDER_POOL_SIZE,
    queueLimit: config.RENDER_QUEUE_LIMIT,
    renderTimeoutMs: config.RENDER_TIMEOUT_MS,
    maxRendersPerBrowser: config.BROWSER_MAX_RENDERS,
    paperSize: config.PAPER_SIZE,
    watchTemplates: config.NODE_ENV === 'development',
    log: (event) => logger.info(event, 'renderer'),
    designReferences,
  });
}

export function paymentSettings(config: Config): PaymentSettings {
  return {
    localPaymentMode: config.localPaymentMode,
    facilitatorUrl: config.FACILITATOR_URL,
    facilitatorAuthHeader: config.FACILITATOR_AUTH_HEADER,
    facilitatorTimeoutMs: config.FACILITATOR_TIMEOUT_MS,
    payTo: config.PAY_TO,
    network: config.X402_NETWORK as `${string}:${string}`,
    asset: config.USDC_ASSET,
    eip712Name: config.USDC_EIP712_NAME,
    eip712Version: config.USDC_EIP712_VERSION,
    maxTimeoutSeconds: config.MAX_TIMEOUT_SECONDS,
    baseUrl: config.PUBLIC_BASE_URL,
    localChainPort: config.LOCAL_CHAIN_PORT,
    localFacilitatorPort: config.LOCAL_FACILITATOR_PORT,
    redisUrl: config.REDIS_URL,
    receiptSigningKey: config.RECEIPT_SIGNING_KEY as `0x${string}` | undefined,
    signInWithX: config.SIGN_IN_WITH_X === 'on' ? { entitlementDays: config.SIGN_IN_WITH_X_DAYS } : undefined,
    trial:
      config.TRIAL_NETWORK === 'on'
        ? {
            facilitatorUrl: config.TRIAL_FACILITATOR_URL,
            payTo: config.TRIAL_PAY_TO,
            asset: config.TRIAL_USDC_ASSET,
            localChainPort: config.LOCAL_TRIAL_CHAIN_PORT,
          }
        : undefined,
  };
}
