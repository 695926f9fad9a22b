import { compactPaymentRequired, type PaymentRequired } from '../payment/compactChallenge.js';
import type { SettleResponse } from '../payment/facilitatorClient.js';

/** The x402 v2 HTTP transport's header names (coinbase/x402 specs/transports-v2/http.md). */
export const PAYMENT_REQUIRED = 'PAYMENT-REQUIRED';
export const PAYMENT_RESPONSE = 'PAYMENT-RESPONSE';
export const PAYMENT_SIGNATURE = 'PAYMENT-SIGNATURE';

/** Longest x402 reason code the header carries; a facilitator's longer reason is cut (the body has it whole). */
export const MAX_HEADER_ERROR_CHARS = 96;

/**
 * The challenge as the PAYMENT-REQUIRED header carries it: what a client needs to pay and the
 * compact discovery declaration (payment/compactChallenge.ts), a client echoing every extension of
 * it into its PAYMENT-SIGNATURE; the reason code cut to a known length. Its size is bounded per
 * configuration and checked at start-up (challengeBudget.ts).
 */
export function headerPaymentRequired(paymentRequired: PaymentRequired): PaymentRequired {
  const { error, ...compact } = compactPaymentRequired(paymentRequired);
  return { ...compact, ...(error !== undefined ? { error: error.slice(0, MAX_HEADER_ERROR_CHARS) } : {}) };
}

/** base64 of the JSON, as the x402 v2 HTTP transport carries its objects (and @x402/core/http encodes them). */
const base64Json = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

export const paymentRequiredHeader = (paymentRequired: PaymentRequired): string =>
  base64Json(headerPaymentRequired(paymentRequired));

export const paymentResponseHeader = (receipt: SettleResponse): string => base64Json(receipt);
