import type { PaymentPayload } from '@x402/core/types';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';
import * as v from 'valibot';
import { AppError } from '../errors.js';

/** Largest PAYMENT-SIGNATURE we read; a real exact-EVM payload is about 1.5 KB of base64. */
export const MAX_PAYMENT_HEADER_BYTES = 16 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
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

const malformed = (message: string) =>
  new AppError('invalid_payment_header', `PAYMENT-SIGNATURE is malformed: ${message}.`);

/** A payment as a transport carries it: the PAYMENT-SIGNATURE header's value, or MCP's `_meta["x402/payment"]` object. */
export type PaymentInput = { header: string } | { payload: unknown };

/** Decodes a payment once, whichever transport it came over: the same checks and errors for both. */
export function decodePayment(payment: PaymentInput): DecodedPayment {
  return 'header' in payment ? decodePaymentSignature(payment.header) : decodePaymentObject(payment.payload);
}

/**
 * An MCP payment: already JSON. Its size is judged as the header it would be (base64 of its JSON),
 * so both transports refuse the same payloads with the same errors.
 */
export function decodePaymentObject(payload: unknown): DecodedPayment {
  const json = JSON.stringify(payload) ?? '';
  if (Math.ceil(Buffer.byteLength(json) / 3) * 4 > MAX_PAYMENT_HEADER_BYTES) throw tooLarge();
  return checkPayload(payload);
}

const tooLarge = () =>
  new AppError('payment_header_too_large', `PAYMENT-SIGNATURE is larger than ${MAX_PAYMENT_HEADER_BYTES} bytes.`);

/**
 * Size cap → base64 → JSON → x402 v2 payload schema → exact-EVM authorization shape. Anything
 * off is a 400 (431 when oversized): a malformed header is a client bug, not a payment decision.
 */
export function decodePaymentSignature(header: string): DecodedPayment {
  if (Buffer.byteLength(header) > MAX_PAYMENT_HEADER_BYTES) {
    throw tooLarge();
  }
  const text = header.trim();
  if (!BASE64.test(text)) throw malformed('not standard base64');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw malformed('the decoded value is not JSON');
  }
  return checkPayload(json);
}

function checkPayload(json: unknown): DecodedPayment {
  const parsed = PaymentPayloadV2Schema.safeParse(json);
  if (!parsed.success)
    throw malformed(`not an x402 version 2 payment payload (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
  const exact = v.safeParse(ExactEvmPayloadSchema, parsed.data.payload);
  if (!exact.success) throw malformed('payload is not an exact-scheme EIP-3009 authorization');
  return { payload: parsed.data as PaymentPayload, authorization: exact.output.authorization };
}
