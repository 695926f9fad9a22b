import type { ListedTool } from './mcpTools.js';
import { MCP_PATH } from './mcpEndpoint.js';

/**
 * The MCP registry's server.json (schema 2025-09-29) for this deployment: a remote server at
 * PUBLIC_BASE_URL/mcp, named in reverse DNS after its host, with the tools and their prices from
 * the route table under the publisher-provided metadata: the tools exactly as tools/list lists
 * them (name, title, price), field_schema included.
 */
export function buildServerJson(tools: readonly ListedTool[], baseUrl: string, version: string) {
  const host = new URL(baseUrl).hostname;
  const namespace = /^[\d.]+$/.test(host) ? host : host.split('.').reverse().join('.');
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
    name: `${namespace}/invoice-pdf`,
    title: 'Invoice PDF API',
    description: 'Invoice PDFs and EN 16931 e-invoices from JSON, paid per call in USDC (x402).',
    version,
    websiteUrl: `${baseUrl}/docs`,
    remotes: [{ type: 'streamable-http', url: `${baseUrl}${MCP_PATH}` }],
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        payment:
          'x402 v2 MCP transport: _meta["x402/payment"] on tools/call, receipt in _meta["x402/payment-response"]',
        tools: tools.map((tool) => ({
          name: tool.name,
          title: tool.title,
          ...(tool._meta?.['x402/price'] ? { price: tool._meta['x402/price'] } : {}),
        })),
      },
    },
  };
}
