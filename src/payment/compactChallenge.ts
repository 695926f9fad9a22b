import type { PaymentRequired } from '@x402/core/types';

export type { PaymentRequired };
import { BAZAAR } from '@x402/extensions/bazaar';
import { OFFER_RECEIPT } from '@x402/extensions/offer-receipt';
import { SIGN_IN_WITH_X } from '@x402/extensions/sign-in-with-x';
import { compactSignInOffer } from './signInWithX/signInChallenge.js';

type Json = Record<string, unknown>;
const record = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/**
 * The challenge without what a client does not need to pay, for a transport whose carrier is small
 * (an HTTP header behind a proxy's 4 KB buffer; a client also echoes every extension into its
 * signature). The signed offers (offer-receipt, receipts.ts: about 880 header bytes per accepts
 * entry) are left out: they are proof for the buyer's records, not needed to pay, and travel in
 * the whole challenge. The bazaar declaration keeps its shape (method, body type, output type, and an input and output
 * schema, which crawlers such as x402scan require) but not its example body nor the body's fields:
 * the body schema names where they are (/openapi.json#<operationId>, offerResource.ts). The whole
 * declaration travels in the 402's JSON body, in MCP's challenge, and to the facilitator with every
 * payment verified (challenges.ts withDiscovery). Everything else is kept as is.
 */
export function compactPaymentRequired(paymentRequired: PaymentRequired): PaymentRequired {
  const { [BAZAAR.key]: bazaar, [OFFER_RECEIPT]: _offers, ...rest } = paymentRequired.extensions ?? {};
  const extensions = { ...rest, ...(bazaar !== undefined ? { [BAZAAR.key]: compactBazaar(bazaar) } : {}) };
  // The sign-in offer without its fixed JSON Schema (signInWithX/signInChallenge.ts).
  if (extensions[SIGN_IN_WITH_X] !== undefined)
    extensions[SIGN_IN_WITH_X] = compactSignInOffer(extensions[SIGN_IN_WITH_X]);
  return { ...paymentRequired, extensions };
}

function compactBazaar(bazaar: unknown): Json {
  const info = record(record(bazaar).info);
  const input = record(info.input);
  const output = record(info.output);
  const fullBody = record(record(record(record(record(bazaar).schema).properties).input).properties).body;
  const description = record(fullBody).description;
  return {
    info: {
      input: { type: input.type, method: input.method, bodyType: input.bodyType, body: {} },
      output: { type: output.type, format: output.format },
    },
    schema: {
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: {
            body: { type: 'object', ...(typeof description === 'string' ? { description } : {}) },
          },
        },
        output: { type: 'object', properties: { example: { type: 'object' } } },
      },
      required: ['input'],
    },
  };
}
