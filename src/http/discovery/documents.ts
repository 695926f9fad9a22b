import { E_INVOICE_PROFILES_NOTE, E_INVOICE_READING_NOTES } from '../../einvoice/profiles.js';
import { CURRENCY_CODES } from '../../invoice/currencies.js';
import { LANGUAGES } from '../../invoice/locales.js';
import { isPaid, type PricedOperation } from '../../operations/operation.js';
import { offerReceiptDeclaration, type OfferReceiptTerms, type RateLimitTerms } from './openapi.js';

/** The small discovery documents: x402 manifest, llms.txt, RFC 9727 api-catalog, sitemap. */

/** Paid resources as absolute URLs (the shape x402scan reads), each offer with its method. */
export function buildX402Manifest(
  routes: readonly PricedOperation[],
  baseUrl: string,
  offers: (route: PricedOperation) => unknown,
  offerReceipt?: OfferReceiptTerms,
) {
  const paid = routes.filter(isPaid);
  return {
    version: 1,
    resources: paid.map((route) => `${baseUrl}${route.path}`),
    instructions:
      'Call a resource without payment to receive HTTP 402 with a PAYMENT-REQUIRED header (x402 v2, base64 JSON). Sign an EIP-3009 USDC authorization for one of its accepts entries and repeat the request with a PAYMENT-SIGNATURE header. Validate the body first for free at POST /v1/invoice/validate: invalid bodies are answered 400 and never charged.',
    offers: paid.map((route) => ({
      resource: `${baseUrl}${route.path}`,
      method: route.method,
      price: { amount: route.priceUsd, currency: 'USD', ...(route.priceOf ? { per: 'invoice' } : {}) },
      accepts: offers(route),
    })),
    ...(offerReceipt ? { extensions: offerReceiptDeclaration(offerReceipt) } : {}),
  };
}

/** One sentence on the limits that are on (the 429 each limited operation declares in /openapi.json). */
function rateLimitNote(limits: RateLimitTerms | undefined): string[] {
  if (!limits || (!limits.client && !limits.payer)) return [];
  const scope = [
    limits.client ? 'per client address' : '',
    limits.payer ? 'per payer on paid routes and paid MCP tool calls' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return [
    `Requests are rate-limited ${scope} (not ${[...limits.exemptPaths].join(', ')}): over a limit the answer is 429 with the error code rate_limited and a Retry-After header (over MCP: retry_after_seconds in the error body); the RateLimit-Policy and RateLimit headers say where a client stands.`,
    '',
  ];
}

export function buildLlmsTxt(routes: readonly PricedOperation[], baseUrl: string, rateLimits?: RateLimitTerms): string {
  const line = (route: PricedOperation) =>
    `- [${route.method} ${route.path}](${baseUrl}/openapi.json): ${route.summary}${isPaid(route) ? ` — ${route.priceUsd} USD per call, x402 v2 (USDC)` : ''}`;
  const byTag = (tag: PricedOperation['tag']) => routes.filter((route) => route.tag === tag).map(line);
  return [
    '# Invoice PDF API',
    '',
    `> Pay-per-call HTTP service that turns invoice JSON into a correct, multi-page PDF. Totals are computed exactly in integer minor units for ${CURRENCY_CODES.length} currencies; the PDF is paid per call in USDC over x402 version 2, with no accounts and no API keys. Validation and the helper operations are free.`,
    '',
    'Send POST /v1/invoice/validate first (free, same checks as the paid route), then POST /v1/invoice.pdf with an x402 v2 client: the first answer is 402 with a PAYMENT-REQUIRED header, the paid retry carries PAYMENT-SIGNATURE and returns the PDF with a PAYMENT-RESPONSE receipt. Errors are JSON: {"error":{"code","message","issues":[{"path","code","message"}]}}.',
    '',
    ...rateLimitNote(rateLimits),
    // E-invoice profiles (src/einvoice/profiles.ts).
    E_INVOICE_PROFILES_NOTE,
    '',
    ...E_INVOICE_READING_NOTES.flatMap((note) => [note, '']),
    `Beyond the minimal invoice, optional fields make it one a business can send anywhere: VAT per line (tax_rate, EN 16931 tax_category S/Z/E/AE/K/G/O) with a VAT breakdown and the discount shared among the rates, units, credit notes (document_type, preceding_invoice), amount_paid and balance due, ship_to, purchase_order, buyer_reference, custom_fields, structured addresses with country codes and VAT ids, bank details (payment), a PNG/JPEG logo, an accent colour, and ${LANGUAGES.length} languages via locale (${LANGUAGES.join(' ')}; ar and he right to left). GET /v1/schema answers example_real_world and notes for every field.`,
    '',
    '## Invoices',
    ...byTag('Invoices'),
    '',
    '## Helpers',
    ...byTag('Helpers'),
    '',
    '## Templates',
    ...byTag('Templates'),
    '',
    '## Discovery',
    ...byTag('Discovery'),
    '',
    '## Optional',
    ...byTag('Operations'),
    '',
  ].join('\n');
}

export function buildApiCatalog(baseUrl: string, docsPath: string | undefined) {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/.well-known/api-catalog`,
        item: [{ href: `${baseUrl}/openapi.json`, type: 'application/vnd.oai.openapi+json' }],
      },
      {
        anchor: `${baseUrl}/`,
        'service-desc': [{ href: `${baseUrl}/openapi.json`, type: 'application/vnd.oai.openapi+json' }],
        'service-doc': [
          ...(docsPath ? [{ href: `${baseUrl}${docsPath}`, type: 'text/html' }] : []),
          { href: `${baseUrl}/llms.txt`, type: 'text/plain' },
        ],
        'service-meta': [{ href: `${baseUrl}/.well-known/x402`, type: 'application/json' }],
        status: [{ href: `${baseUrl}/healthz`, type: 'application/json' }],
      },
    ],
  };
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

export function buildSitemap(routes: readonly PricedOperation[], baseUrl: string): string {
  const urls = routes
    .filter((route) => route.method === 'GET' && route.document)
    .map((route) => `${baseUrl}${route.path}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => `  <url><loc>${escapeXml(url)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}
