import type { PricedOperation, Operation } from '../../operations/operation.js';
import { API_VERSION, buildOpenApi, type PaymentTerms, type RateLimitTerms } from '../discovery/openapi.js';
import { listedTools } from '../mcp/mcpServer.js';
import { mcpTools } from '../mcp/mcpTools.js';
import { buildServerJson } from '../mcp/serverJson.js';
import { buildApiCatalog, buildLlmsTxt, buildSitemap, buildX402Manifest } from '../discovery/documents.js';

export interface DiscoveryOptions {
  baseUrl: string;
  payment: PaymentTerms;
  /** The accepts entries a paid route currently offers (same as its 402 challenge). */
  offers(route: PricedOperation): unknown;
  docsPath?: string;
  /** The rate limits in force: each limited operation declares its 429. */
  rateLimits?: RateLimitTerms;
}

/**
 * The discovery documents describe the whole route table, themselves included, so they receive it
 * lazily and build each document once: the table and the configuration don't change at run time.
 */
export function discoveryRoutes(table: () => readonly PricedOperation[], options: DiscoveryOptions): Operation[] {
  const once = <T>(build: () => T) => {
    let value: T | undefined;
    return () => (value ??= build());
  };
  const openapi = once(() => buildOpenApi(table(), options.baseUrl, options.payment, options.rateLimits));
  const manifest = once(() =>
    buildX402Manifest(table(), options.baseUrl, options.offers, options.payment.offerReceipt),
  );
  const llms = once(() => buildLlmsTxt(table(), options.baseUrl, options.rateLimits));
  const catalog = once(() => buildApiCatalog(options.baseUrl, options.docsPath));
  const sitemap = once(() => buildSitemap(table(), options.baseUrl));
  const serverJson = once(() => buildServerJson(listedTools(mcpTools(table())), options.baseUrl, API_VERSION));

  const document = (
    path: string,
    operationId: string,
    summary: string,
    contentType: string,
    body: () => unknown,
  ): Operation => ({
    method: 'GET',
    path,
    operationId,
    summary,
    description: summary,
    tag: 'Discovery',
    document: true,
    response: { contentType, description: summary },
    handle: () => ({ contentType, body: body() }),
  });

  return [
    document('/openapi.json', 'openapi', 'OpenAPI 3.1.0 description of the service', 'application/json', openapi),
    document(
      '/.well-known/x402',
      'x402_manifest',
      'x402 payment manifest: paid resources and the current offer',
      'application/json',
      manifest,
    ),
    document(
      '/llms.txt',
      'llms_txt',
      'Plain-text summary of the service for language models (llmstxt.org)',
      'text/plain; charset=utf-8',
      llms,
    ),
    document(
      '/.well-known/api-catalog',
      'api_catalog',
      'API catalog (RFC 9727 linkset)',
      'application/linkset+json',
      catalog,
    ),
    document('/sitemap.xml', 'sitemap', 'Sitemap of the public documents', 'application/xml', sitemap),
    document(
      '/.well-known/mcp/server.json',
      'mcp_server_json',
      'MCP registry server.json: the MCP server at /mcp and its tools',
      'application/json',
      serverJson,
    ),
  ];
}
