import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppError, internalError } from '../../errors.js';
import { fingerprintOf, type PaidCall } from '../paidCall.js';
import type { PricedResource } from '../../payment/offer.js';
import { pricedResource } from '../paymentGate.js';
import type { PayerLimit } from '../rateLimit/rateLimit.js';
import { isPaid } from '../routeSpec.js';
import type { McpTool } from './mcpTools.js';
import { resultOfAnswer, resultOfError, resultOfPaidOutcome, type ToolResult } from './toolResults.js';

export interface McpServerOptions {
  tools: readonly McpTool[];
  version: string;
  /** The HTTP gate's paid call (same processor, store and lifecycle); absent: paid tools are unavailable. */
  paidCall?: PaidCall | undefined;
  /**
   * The HTTP payer limit's bucket (same store, policy and key): the payment rides in the JSON-RPC
   * body, out of the rate-limit middleware's sight. Absent: no payer limit.
   */
  payerLimit?: PayerLimit | undefined;
  logError(error: unknown, context: Record<string, unknown>): void;
}

/**
 * An MCP server over the route table. A tool call runs the route's own parse (every issue, before
 * anything about payment) and handler; a paid tool goes through the same paid call as the HTTP
 * gate, its payment in `_meta["x402/payment"]` (the x402 MCP transport).
 */
export function mcpServerFactory(options: McpServerOptions): () => Server {
  // Built once: the transport is stateless, so a server is made for every POST /mcp.
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const resources = new Map(options.tools.filter((tool) => isPaid(tool.route)).map((tool) => [tool.name, pricedResource(tool.route)]));
  return () => createMcpServer(options, byName, resources);
}

function createMcpServer(options: McpServerOptions, byName: ReadonlyMap<string, McpTool>, resources: ReadonlyMap<string, PricedResource>): Server {
  const server = new Server({ name: 'invoice-pdf-x402', title: 'Invoice PDF API', version: options.version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map(({ route: _route, ...tool }) => tool),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return resultOfError(new AppError('not_found', `No tool named ${request.params.name}; tools/list names them.`));
    const args = request.params.arguments ?? {};
    try {
      const { route } = tool;
      // Validation first: invalid input is refused before anything about payment, never charged.
      const parsed = route.request ? route.request.parse(args) : undefined;
      const input = route.request?.resolve ? await route.request.resolve(parsed) : parsed;
      const resource = resources.get(tool.name);
      if (!resource) return resultOfAnswer(tool.name, await route.handle(input, { signal: extra.signal }));
      if (!options.paidCall) throw new AppError('payment_unavailable', 'Payments are not configured on this instance, so this paid tool is unavailable.');
      const payment = request.params._meta?.['x402/payment'];
      // The processor reads the HTTP header's encoding (base64 JSON); it decodes and checks the shape.
      const header = payment === undefined ? undefined : Buffer.from(JSON.stringify(payment)).toString('base64');
      // Before the processor: over the payer's limit, the facilitator never hears of the payment.
      if (header !== undefined) await options.payerLimit?.(header);
      const outcome = await options.paidCall(resource, header, fingerprintOf(route.method, route.path, args), (signal) => route.handle(input, { signal }));
      return resultOfPaidOutcome(tool.name, outcome);
    } catch (thrown) {
      const error = thrown instanceof AppError ? thrown : internalError(thrown);
      if (!(thrown instanceof AppError)) options.logError(thrown, { tool: tool.name });
      return resultOfError(error);
    }
  });
  return server;
}
