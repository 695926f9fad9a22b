import type { PaymentPayload } from '@x402/core/types';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';
import * as v from 'valibot';
import { AppError } from '../errors.js';

/**
 * Largest payment payload we read, as JSON: 12 KiB, which is what a 16 KiB PAYMENT-SIGNATURE
 * header carries once base64 is undone (http/paymentSignature.ts), so both transports refuse the
 * same payloads. A real exact-EVM payload is about 1.1 KB of JSON.
 */
const MAX_PAYMENT_JSON_BYTES = 12 * 1024;

const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^\d{1,78}$/;

/** The EIP-3009 authorization inside an `exact` EVM payload (coinbase/x402 specs/schemes/exact/scheme_exact_evm.md). */
const ExactEvmPayloadSchema = v.object({
  signature: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]+$/)),
  authorization: v.object({
    from: v.pipe(v.string(), v.regex(ADDRESS)),
    to: v.pipe(v.string(), v.regex(ADDRESS)),
    value: v.pipe(v.string(), v.regex(UINT)),
    validAfter: v.pipe(v.string(), v.regex(UINT)),
    validBefore: v.pipe(v.string(), v.regex(UINT)),
    nonce: v.pipe(v.string(), v.regex(HEX32)),
  }),
});

export type ExactAuthorization = v.InferOutput<typeof ExactEvmPayloadSchema>['authorization'];

export interface DecodedPayment {
  payload: PaymentPayload;
  authorization: ExactAuthorization;
}

/** A payment that is no x402 payload: a 400, a client bug rather than a payment decision. */
export const malformedPayment = (message: string) =>
  new AppError(
    'invalid_payment_header',
    `The payment (PAYMENT-SIGNATURE or _meta["x402/payment"]) is malformed: ${message}.`,
  );

/**
 * A payment payload as a transport decoded it (the HTTP header's JSON, MCP's `_meta["x402/payment"]`
 * object): size cap → x402 v2 payload schema → exact-EVM authorization shape, the same checks and
 * errors whichever transport carried it.
 */
export function decodePayment(payload: unknown): DecodedPayment {
  const json = JSON.stringify(payload) ?? '';
  if (Buffer.byteLength(json) > MAX_PAYMENT_JSON_BYTES)
    throw new AppError(
      'payment_header_too_large',
      `The payment is larger than ${MAX_PAYMENT_JSON_BYTES} bytes of JSON.`,
    );
  const parsed = PaymentPayloadV2Schema.safeParse(payload);
  if (!parsed.success)
    throw malformedPayment(`not an x402 version 2 payment payload (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
  const exact = v.safeParse(ExactEvmPayloadSchema, parsed.data.payload);
  if (!exact.success) throw malformedPayment('payload is not an exact-scheme EIP-3009 authorization');
  return { payload: parsed.data as PaymentPayload, authorization: exact.output.authorization };
}
