import type { Config } from '../config.js';
import type { PaymentSettings } from './startPayments.js';

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
  };
}
