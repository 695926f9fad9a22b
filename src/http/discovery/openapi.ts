import * as v from 'valibot';
import { jsonSchemaOf } from '../../invoice/fieldNotes.js';
import type { BucketPolicy } from '../rateLimit/tokenBucket.js';
import { isPaid, type PricedOperation } from '../../operations/operation.js';

/** OpenAPI 3.1.0 document generated from the route table and the valibot schemas. */

export const API_VERSION = '1.2.0';

const ErrorBodySchema = v.object({
  error: v.object({
    code: v.pipe(v.string(), v.description('Stable snake_case code, e.g. validation_failed, invalid_json.')),
    message: v.pipe(v.string(), v.description('Human-readable explanation, safe to show.')),
    issues: v.optional(
      v.array(
        v.object({
          path: v.pipe(v.string(), v.description('Where the problem is, e.g. line_items[3].quantity.')),
          code: v.string(),
          message: v.string(),
        }),
      ),
    ),
  }),
});

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The rate limits as app.ts applies them (rateLimit.ts); a policy left out is off. */
export interface RateLimitTerms {
  /** Per client address, on every route but the exempt ones. */
  client?: BucketPolicy | undefined;
  /** Per payer, on paid routes (and paid MCP tool calls) whose payment decodes. */
  payer?: BucketPolicy | undefined;
  exemptPaths: ReadonlySet<string>;
}

/** The limits that can answer a route with 429 (none on the probes, or with the limits off). */
function limitsOn(route: PricedOperation, limits: RateLimitTerms | undefined): BucketPolicy[] {
  if (!limits || limits.exemptPaths.has(route.path)) return [];
  return [limits.client, isPaid(route) ? limits.payer : undefined].filter(
    (policy): policy is BucketPolicy => policy !== undefined,
  );
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

const describeLimit = (policy: BucketPolicy, limits: RateLimitTerms) =>
  `${policy === limits.payer ? 'per payer (authorization.from of a PAYMENT-SIGNATURE that decodes; paid MCP tool calls count too)' : 'per client address'}: a burst of ${policy.burst} requests, then ${policy.perSecond} a second`;

const rateLimitedResponse = (policies: BucketPolicy[], limits: RateLimitTerms) => ({
  description: `Too many requests (rate_limited), ${policies.map((policy) => describeLimit(policy, limits)).join('; or ')}. Retry after the Retry-After header; nothing was charged.`,
  headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_LIMIT_HEADERS },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

export interface PaymentTerms {
  network: string;
  asset: string;
  payTo: string;
  scheme: 'exact';
  /** The x402 offer-receipt extension, when on: who signs the offers and receipts (src/payment/receipts.ts). */
  offerReceipt?: OfferReceiptTerms;
}

export interface OfferReceiptTerms {
  format: 'eip712';
  /** The address signed offers and receipts recover to. */
  signer: string;
  kid: string;
}

/** How discovery documents declare the offer-receipt extension (/.well-known/x402, OpenAPI x-payment-info). */
export const offerReceiptDeclaration = (terms: OfferReceiptTerms) => ({
  'offer-receipt': {
    ...terms,
    description:
      'Every 402 carries signed offers in its JSON body (payment_required.extensions["offer-receipt"].info.offers; the PAYMENT-REQUIRED header leaves them out to fit a proxy\'s 4 KB header buffer) and every paid answer a signed receipt in PAYMENT-RESPONSE (extensions["offer-receipt"].info.receipt: resourceUrl, payer, network, issuedAt, transaction), EIP-712 (domain "x402 receipt"/"1", chainId 1). Verify offline with verifyReceiptSignatureEIP712 from @x402/extensions/offer-receipt and compare the recovered address with signer. The Content-Digest header (RFC 9530, sha-256) of a paid answer is the SHA-256 of the delivered bytes.',
  },
});

/**
 * The payment annotation in the shape x402scan and @agentcash/discovery read: a fixed USD price
 * and the protocols, the x402 entry carrying our offer's terms.
 */
const paymentInfo = (priceUsd: string, payment: PaymentTerms) => ({
  price: { mode: 'fixed', currency: 'USD', amount: priceUsd },
  protocols: [
    {
      x402: {
        x402Version: 2,
        scheme: payment.scheme,
        network: payment.network,
        asset: payment.asset,
        payTo: payment.payTo,
        ...(payment.offerReceipt ? { extensions: offerReceiptDeclaration(payment.offerReceipt) } : {}),
      },
    },
  ],
});

/** Short instructions for agents (info.x-guidance; discovery tools inline it, so under 4000 characters). */
const GUIDANCE = [
  'Validate an invoice for free with POST /v1/invoice/validate (same checks as the paid routes; every issue is listed with its path).',
  'Then POST the same JSON to a paid route (/v1/invoice.pdf, /v1/e-invoice/*) with an x402 v2 client: the unpaid call answers 402 with a PAYMENT-REQUIRED header (base64 JSON, one exact USDC offer);',
  'sign it and repeat the call with PAYMENT-SIGNATURE. The answer carries the file and a PAYMENT-RESPONSE receipt. Invalid bodies are answered 400 and never charged;',
  'a re-send of the same signature returns the same result without a second charge. GET /v1/schema gives a full example and notes for every field.',
  'The same operations are MCP tools at /mcp (streamable HTTP; paid tools follow the x402 MCP transport, _meta["x402/payment"]).',
].join(' ');

/** The parameters of a path such as /v1/templates/{id}. */
function pathParametersOf(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  return names.length === 0
    ? {}
    : { parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) };
}

export function buildOpenApi(
  routes: readonly PricedOperation[],
  baseUrl: string,
  payment: PaymentTerms,
  rateLimits?: RateLimitTerms,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const paid = isPaid(route);
    paths[route.path] = {
      ...paths[route.path],
      [route.method.toLowerCase()]: {
        operationId: route.operationId,
        summary: route.summary,
        description: paid
          ? `${route.description}\n\n**Price: ${route.priceUsd} USD per ${route.priceOf ? 'invoice in the call' : 'call'}**, paid in USDC (${payment.network}, scheme ${payment.scheme}) over x402 version 2.`
          : route.description,
        tags: [route.tag],
        ...pathParametersOf(route.path),
        ...(route.request ? { requestBody: requestBodyOf(route.request) } : {}),
        responses: responsesOf(route, rateLimits),
        // No API key on any operation: a paid one is paid per call (x-payment-info), a free one is
        // open. x402scan and @agentcash/discovery read `security: []` as "no auth".
        security: [],
        ...(paid ? { 'x-payment-info': paymentInfo(route.priceUsd, payment) } : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Invoice PDF API',
      version: API_VERSION,
      contact: { name: 'Invoice PDF API', url: `${baseUrl}/docs` },
      'x-guidance': GUIDANCE,
      description:
        'Turns invoice JSON into a correct, multi-page PDF. Totals are computed exactly in integer minor units. The PDF costs a fixed price paid per call in USDC over x402 v2; no accounts, no API keys. Validation and the helper operations are free unless priced by the operator.',
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: 'Invoices', description: 'Invoice validation and PDF rendering.' },
      { name: 'Helpers', description: 'Reminder drafts, late fees, payment terms, invoices from timesheets.' },
      {
        name: 'Templates',
        description: 'Designs of your own: the built-in packages, checks, previews and stored designs.',
      },
      { name: 'Discovery', description: 'Machine-readable descriptions of the service.' },
      { name: 'Operations', description: 'Health and readiness.' },
    ],
    paths,
    components: {
      schemas: { ErrorBody: jsonSchemaOf(ErrorBodySchema) },
      headers: componentHeaders(routes.some((route) => limitsOn(route, rateLimits).length > 0)),
    },
  };
}

/** A row's request body: its JSON schema and examples, and the document media types it also takes. */
function requestBodyOf(request: NonNullable<PricedOperation['request']>) {
  return {
    required: true,
    content: {
      // A document row (operations/operation.ts `document`) also takes the document itself.
      ...Object.fromEntries(
        (request.document?.mediaTypes ?? [])
          .filter((type) => type !== 'application/json')
          .map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
      'application/json': {
        schema: jsonSchemaOf(request.schema),
        ...(request.moreExamples
          ? {
              examples: {
                minimal: { value: request.example },
                ...Object.fromEntries(Object.entries(request.moreExamples).map(([name, value]) => [name, { value }])),
              },
            }
          : { example: request.example }),
      },
    },
  };
}

/** Every answer a row can give: its 200, the refusals of its body, payment, saturation and rate limits. */
function responsesOf(route: PricedOperation, rateLimits: RateLimitTerms | undefined): Record<string, unknown> {
  const paid = isPaid(route);
  const limits = limitsOn(route, rateLimits);
  const successHeaders = {
    ...(paid ? { 'PAYMENT-RESPONSE': { $ref: '#/components/headers/PAYMENT-RESPONSE' } } : {}),
    ...(limits.length ? RATE_LIMIT_HEADERS : {}),
  };
  const responses: Record<string, unknown> = {
    200: {
      description: route.response.description,
      ...(Object.keys(successHeaders).length ? { headers: successHeaders } : {}),
      content: {
        [route.response.contentType]: {
          schema: route.response.schema
            ? jsonSchemaOf(route.response.schema)
            : route.response.contentType === 'application/pdf' || route.response.contentType === 'application/zip'
              ? { type: 'string', contentMediaType: route.response.contentType }
              : { type: 'object' },
          ...(route.response.example !== undefined ? { example: route.response.example } : {}),
        },
      },
    },
  };
  if (route.request) {
    responses[400] = errorResponse(
      route.request.document
        ? 'The document is refused (a stable code: not XML, a DOCTYPE, too deep, not an e-invoice, a PDF without one), or a JSON body is not valid JSON or fails validation; every issue is listed. Never charged.'
        : 'The body is not valid JSON or fails validation; every issue is listed. Never charged.',
    );
    responses[413] = errorResponse('The body is larger than the limit.');
    const mediaTypes = route.request.document?.mediaTypes ?? ['application/json'];
    responses[415] = errorResponse(
      `The body is not sent as ${mediaTypes.join(', ')}, or its Content-Encoding is not identity, gzip, deflate or br.`,
    );
  }
  if (paid) {
    responses[402] = {
      description:
        'Payment required (x402 v2). The PAYMENT-REQUIRED header carries the base64 JSON challenge; retry with PAYMENT-SIGNATURE.',
      headers: { 'PAYMENT-REQUIRED': { $ref: '#/components/headers/PAYMENT-REQUIRED' } },
      content: { 'application/json': { schema: { type: 'object' } } },
    };
    responses[502] = errorResponse('Rendering or the payment facilitator failed; the payment was NOT settled.');
    responses[503] = errorResponse('The service is saturated; retry after the Retry-After header. Not charged.');
  } else if (route.request) {
    // Parsed (and computed) on the worker threads (operations/callOperation.ts), whose queue is bounded.
    responses[503] = errorResponse(
      'Too many free computations are waiting (server_busy); retry after the Retry-After header.',
    );
  }
  if (rateLimits && limits.length) responses[429] = rateLimitedResponse(limits, rateLimits);
  return responses;
}

/** components.headers: the payment headers, and the rate-limit headers when some route is limited. */
function componentHeaders(rateLimited: boolean) {
  return {
    'PAYMENT-REQUIRED': {
      description:
        "base64(JSON PaymentRequired), x402 v2: what a client pays with (accepts, resource, payment-identifier, a compact bazaar declaration); the whole PaymentRequired, with signed offers and the bazaar body schema, is the JSON body's payment_required.",
      schema: { type: 'string' },
    },
    'PAYMENT-RESPONSE': {
      description:
        'base64(JSON SettleResponse): the settlement receipt, x402 v2 (with the signed offer-receipt receipt when the service signs receipts).',
      schema: { type: 'string' },
    },
    'Content-Digest': {
      description: 'sha-256=:<base64>: (RFC 9530), the SHA-256 of the delivered bytes of a paid answer.',
      schema: { type: 'string' },
    },
    ...(rateLimited
      ? {
          'Retry-After': {
            description: 'Seconds until a request is allowed again.',
            schema: { type: 'integer', minimum: 1 },
          },
          'RateLimit-Policy': {
            description:
              'The limits applied to this request (IETF RateLimit headers): "client" per client address and, on paid routes with a payment, "payer"; q is the burst (requests), w the seconds to refill it. Example: "client";q=200;w=4, "payer";q=50;w=5',
            schema: { type: 'string' },
          },
          RateLimit: {
            description:
              'Where this client stands per limit: r requests left, t seconds until the bucket is full again. Example: "client";r=199;t=1',
            schema: { type: 'string' },
          },
        }
      : {}),
  };
}
