import { jsonSchemaOf } from '../invoice/fieldNotes.js';
import { compactBodySchema, compactExample } from './discovery/compactSchema.js';
import type { PricedResource } from '../payment/offer.js';
import type { PricedOperation } from '../operations/operation.js';

/** How the bazaar and x402scan list the service (printable ASCII, ≤ 32 characters). */
const SERVICE_NAME = 'Invoice PDF API';

/** Short topical tags for discovery search (≤ 5, each ≤ 32 ASCII characters). */
function tagsOf(route: PricedOperation): string[] {
  const format = route.response.contentType.split(';')[0]!.split('/')[1] ?? 'file';
  return [
    'invoice',
    route.path.includes('e-invoice') ? 'e-invoice' : 'billing',
    format.replace(/[^a-z0-9.+-]/g, ''),
    'usdc',
  ];
}

export function pricedResource(route: PricedOperation): PricedResource {
  return {
    method: route.method,
    path: route.path,
    priceUsd: route.priceUsd,
    description: route.summary,
    mimeType: route.response.contentType,
    serviceName: SERVICE_NAME,
    tags: tagsOf(route),
    ...(route.request
      ? bodyDescription(route.operationId, route.request.example, jsonSchemaOf(route.request.schema))
      : {}),
  };
}

const bodyDescription = (operationId: string, example: unknown, schema: ReturnType<typeof jsonSchemaOf>) => ({
  exampleBody: compactExample(example, schema),
  bodySchema: compactBodySchema(schema, `/openapi.json#${operationId}`),
});
