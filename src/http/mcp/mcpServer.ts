import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../errors.js';
import type { PayerAdmission } from '../../payment/paymentProcessor.js';
import {
  FIELD_SCHEMA_TOOL,
  fieldOfResourceUri,
  fieldSchemaOf,
  SCHEMA_RESOURCE_TEMPLATE,
  schemaResourceUri,
} from './fieldSchema.js';
import { listed, type McpTool } from './mcpTools.js';
import { toolCaller, type ToolCall, type ToolCallerOptions } from './toolCall.js';
import { resultOf, type ToolCallEnd, type ToolResult } from './toolResults.js';
import { SERVER_INSTRUCTIONS } from './toolText.js';

export interface McpServerOptions extends ToolCallerOptions {
  version: string;
}

export interface McpServerFactory {
  /** A server for one POST (the transport is stateless): initialize, tools/list, resources, and calls the endpoint leaves to it. */
  build(admitPayer?: PayerAdmission): Server;
  /** tools/call itself, which the endpoint answers without the SDK when it can (mcpEndpoint.ts). */
  callTool(call: ToolCall): Promise<ToolCallEnd>;
}

/**
 * The MCP adapter of the operation list: a tool call hands its arguments and its payment
 * (`_meta["x402/payment"]`, the x402 MCP transport) to the same call core as HTTP (toolCall.ts);
 * tools/list shows the summarised tools (mcpTools.ts) and field_schema; the full schemas are
 * resources too (schema://{tool}/{field}).
 */
export function mcpServerFactory(options: McpServerOptions): McpServerFactory {
  // Built once: a server is made for every POST /mcp.
  const tools = [...options.tools.map(listed), FIELD_SCHEMA_TOOL];
  const resources = options.tools.flatMap((tool) =>
    (['input', 'output'] as const).flatMap((of) =>
      tool.summarised[of]
        .filter((field) => field !== '')
        .map((field) => ({
          uri: schemaResourceUri(tool.name, field, of),
          name: `${tool.name} ${of} ${field}`,
          mimeType: 'application/schema+json',
        })),
    ),
  );
  const callTool = toolCaller(options);
  return { build: (admitPayer) => createMcpServer(options, { tools, resources }, callTool, admitPayer), callTool };
}

function createMcpServer(
  options: McpServerOptions,
  listing: { tools: unknown[]; resources: unknown[] },
  callTool: (call: ToolCall) => Promise<ToolCallEnd>,
  admitPayer?: PayerAdmission,
): Server {
  const server = new Server(
    { name: 'invoice-pdf-x402', title: 'Invoice PDF API', version: options.version },
    { capabilities: { tools: {}, resources: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing.tools as never[] }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listing.resources as never[] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: SCHEMA_RESOURCE_TEMPLATE,
        name: 'Full JSON Schema of a tool field',
        description:
          'The full JSON Schema of a field tools/list summarises (schema://{tool}/output/{field} for a result field).',
        mimeType: 'application/schema+json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const field = fieldOfResourceUri(request.params.uri);
    if (!field) throw new AppError('not_found', `No resource ${request.params.uri}; use schema://{tool}/{field}.`);
    const answer = fieldSchemaOf(options.tools, { ...field });
    return {
      contents: [{ uri: request.params.uri, mimeType: 'application/schema+json', text: JSON.stringify(answer.schema) }],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> =>
    resultOf(
      await callTool({
        name: request.params.name,
        args: request.params.arguments === undefined ? undefined : { value: request.params.arguments },
        payment: request.params._meta?.['x402/payment'],
        signal: extra.signal,
        admitPayer,
      }),
    ),
  );
  return server;
}

/** What tools/list lists, in order (for the discovery listing and the docs). */
export const listedTools = (tools: readonly McpTool[]) => [...tools.map(listed), FIELD_SCHEMA_TOOL];
