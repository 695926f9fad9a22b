import { jsonSchemaOf } from '../../invoice/fieldNotes.js';
import { isPaid, type PricedOperation } from '../../operations/operation.js';

/**
 * The MCP tools, one per operation of the route table (invoices, e-invoices, helpers): the same
 * names (operationId), descriptions and valibot-generated input schemas as the HTTP API.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  outputSchema?: Record<string, unknown> & { type: 'object' };
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  _meta?: Record<string, unknown>;
  route: PricedOperation;
}

export const isToolRoute = (route: PricedOperation) => route.tag === 'Invoices' || route.tag === 'Helpers';

/** What a file-producing tool answers in structuredContent, beside the file as an embedded resource. */
const FILE_OUTPUT_SCHEMA = {
  type: 'object' as const,
  properties: {
    contentType: { type: 'string' },
    bytes: { type: 'integer', description: 'Size of the file in the embedded resource.' },
    sha256: { type: 'string', description: 'Hex SHA-256 of the file (what a signed receipt paid for).' },
    pages: { type: 'integer', description: 'Number of pages (PDF only).' },
    uri: { type: 'string', description: 'URI of the embedded resource (content[0].resource.uri).' },
  },
  required: ['contentType', 'bytes', 'uri'],
};

/** MCP schemas are plain JSON Schema objects, without the draft's $schema. */
function plain(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** structuredContent of a refused call: the API's error body (with retry_after_seconds where HTTP sends Retry-After). */
const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        issues: { type: 'array' },
        retry_after_seconds: { type: 'integer', minimum: 1 },
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
};

/** structuredContent of a paid tool's challenge (the x402 PaymentRequired) or failed settlement. */
const PAYMENT_SCHEMA = {
  type: 'object',
  properties: {
    x402Version: { type: 'integer' },
    error: { type: 'string' },
    accepts: { type: 'array' },
    resource: { type: 'object' },
    'x402/payment-response': { type: 'object' },
  },
  required: ['x402Version'],
};

/**
 * Every structuredContent a tool can answer: its result, or (isError) an error body or, when paid,
 * the payment's. MCP wants an object schema at the top, and clients validate errors too.
 */
const outputOf = (result: Record<string, unknown>, paid: boolean) => ({
  type: 'object' as const,
  anyOf: [result, ERROR_SCHEMA, ...(paid ? [PAYMENT_SCHEMA] : [])],
});

export function mcpTools(routes: readonly PricedOperation[]): McpTool[] {
  return routes.filter(isToolRoute).map((route) => {
    const paid = isPaid(route);
    const input = route.request
      ? plain(jsonSchemaOf(route.request.schema))
      : { type: 'object', properties: {}, additionalProperties: false };
    const json = route.response.contentType.startsWith('application/json');
    const output: Record<string, unknown> | undefined =
      json && route.response.schema
        ? plain(jsonSchemaOf(route.response.schema))
        : json
          ? undefined
          : FILE_OUTPUT_SCHEMA;
    return {
      name: route.operationId,
      title: route.summary,
      description: paid
        ? `${route.description}\n\nPrice: ${route.priceUsd} USD per ${route.priceOf ? 'invoice in the call' : 'call'} in USDC, x402 v2 MCP transport: call without payment to get the PaymentRequired (isError, structuredContent), then call again with _meta["x402/payment"]. Invalid input is refused before payment, never charged.`
        : route.description,
      inputSchema: input as McpTool['inputSchema'],
      ...(output && output.type === 'object' ? { outputSchema: outputOf(output, paid) } : {}),
      // A PUT stores something (a theme), idempotently: the same body, the same id.
      annotations: { readOnlyHint: route.method !== 'PUT', idempotentHint: true, openWorldHint: false },
      ...(paid ? { _meta: { 'x402/price': { amount: route.priceUsd, currency: 'USD' } } } : {}),
      route,
    };
  });
}
