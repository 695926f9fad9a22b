import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { PAYMENT_IDENTIFIER, declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier';
import { usdToAtomic } from './price.js';

/** What the service asks for: one `exact` USDC offer per priced route (the x402 v2 PaymentRequirements: coinbase/x402 specs/x402-specification-v2.md). */
export interface OfferTerms {
  network: `${string}:${string}`;
  asset: string;
  payTo: string;
  /** The token's EIP-712 domain, per network ("USD Coin"/"2" on Base mainnet, "USDC"/"2" on Base Sepolia). */
  eip712Name: string;
  eip712Version: string;
  maxTimeoutSeconds: number;
}

export interface PricedResource {
  method: string;
  path: string;
  priceUsd: string;
  description: string;
  mimeType: string;
  /** For the bazaar discovery extension: an example JSON body and the JSON Schema of the body. */
  exampleBody?: unknown;
  bodySchema?: Record<string, unknown>;
  /** Bazaar service metadata on `resource` (printable ASCII, ≤ 32 characters each, ≤ 5 tags). */
  serviceName?: string;
  tags?: string[];
}

/** The bazaar's output `type`: what kind of bytes the paid answer is, with its media type as `format`. */
function outputOf(mimeType: string) {
  const type = /json/.test(mimeType) ? 'json' : /^text\/|xml/.test(mimeType) ? 'text' : 'binary';
  return { type, format: mimeType, example: { contentType: mimeType } };
}

export function buildRequirements(resource: PricedResource, terms: OfferTerms): PaymentRequirements {
  return {
    scheme: 'exact',
    network: terms.network,
    amount: usdToAtomic(resource.priceUsd),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.eip712Name, version: terms.eip712Version },
  };
}

/** The 402 challenge. `resource.url` comes from the configured public base URL, never the Host header. */
export function buildPaymentRequired(
  resource: PricedResource,
  terms: OfferTerms,
  baseUrl: string,
  error: string,
): PaymentRequired {
  const bazaar = declareDiscoveryExtension({
    bodyType: 'json',
    ...(resource.exampleBody ? { input: resource.exampleBody as Record<string, unknown> } : {}),
    ...(resource.bodySchema ? { inputSchema: resource.bodySchema } : {}),
    output: {
      example: outputOf(resource.mimeType).example,
      schema: { type: 'object', properties: { contentType: { type: 'string', const: resource.mimeType } } },
    },
  });
  for (const extension of Object.values(bazaar) as { info?: { input?: Record<string, unknown>; output?: unknown } }[]) {
    // declareDiscoveryExtension leaves the method to the framework adapter; a hand-written server sets it.
    if (extension.info?.input) extension.info.input.method = resource.method;
    // ... and types every output as json: a PDF is binary, an XML e-invoice text.
    if (extension.info) extension.info.output = outputOf(resource.mimeType);
  }
  return {
    x402Version: 2,
    error,
    resource: {
      url: `${baseUrl}${resource.path}`,
      description: resource.description,
      mimeType: resource.mimeType,
      ...(resource.serviceName ? { serviceName: resource.serviceName } : {}),
      ...(resource.tags ? { tags: resource.tags } : {}),
    },
    accepts: [buildRequirements(resource, terms)],
    // The payment-identifier extension (paymentIdentifier.ts), optional for the client.
    extensions: { ...bazaar, [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) },
  };
}
