import { AppError } from '../errors.js';
import { malformedPayment } from '../payment/paymentPayload.js';

/** Largest PAYMENT-SIGNATURE we read; a real exact-EVM payload is about 1.5 KB of base64. */
export const MAX_PAYMENT_HEADER_BYTES = 16 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The PAYMENT-SIGNATURE header's value as the x402 v2 HTTP transport carries it (base64 of JSON,
 * coinbase/x402 specs/transports-v2/http.md), decoded to the payload object that payment/ checks
 * (payment/paymentPayload.ts decodePayment). Oversized is a 431, anything else off a 400.
 */
export function readPaymentSignature(header: string): unknown {
  if (Buffer.byteLength(header) > MAX_PAYMENT_HEADER_BYTES)
    throw new AppError(
      'payment_header_too_large',
      `PAYMENT-SIGNATURE is larger than ${MAX_PAYMENT_HEADER_BYTES} bytes.`,
    );
  const text = header.trim();
  if (!BASE64.test(text)) throw malformedPayment('PAYMENT-SIGNATURE is not standard base64');
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as unknown;
  } catch {
    throw malformedPayment('the decoded PAYMENT-SIGNATURE is not JSON');
  }
}
