import type { PaymentRequired } from '@x402/core/types';
import { BAZAAR } from '@x402/extensions/bazaar';

type Json = Record<string, unknown>;
const record = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/**
 * The challenge without what only discovery needs, for a transport whose carrier is small (an HTTP
 * header behind a proxy's 4 KB buffer; a client also echoes every extension into its signature).
 * The bazaar declaration keeps its shape (method, body type, output type, and an input and output
 * schema, which crawlers such as x402scan require) but not its example body nor the body's fields:
 * the body schema names where they are (/openapi.json#<operationId>, offerResource.ts). The whole
 * declaration travels in the 402's JSON body, in MCP's challenge, and to the facilitator with every
 * payment verified (challenges.ts withDiscovery). Everything else is kept as is.
 */
export function compactPaymentRequired(paymentRequired: PaymentRequired): PaymentRequired {
  const bazaar = paymentRequired.extensions?.[BAZAAR.key];
  if (bazaar === undefined) return paymentRequired;
  return { ...paymentRequired, extensions: { ...paymentRequired.extensions, [BAZAAR.key]: compactBazaar(bazaar) } };
}

export function compactBazaar(bazaar: unknown): Json {
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
