import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppError, internalError } from '../../errors.js';
import type { OperationCaller } from '../../operations/callOperation.js';
import type { PayerAdmission } from '../../payment/paymentProcessor.js';
import type { McpTool } from './mcpTools.js';
import { resultOfError, resultOfOutcome, type ToolResult } from './toolResults.js';

export interface McpServerOptions {
  tools: readonly McpTool[];
  version: string;
  /** The call core HTTP uses too (same compute pool, processor, store and lifecycle). */
  caller: OperationCaller;
  logError(error: unknown, context: Record<string, unknown>): void;
}

/**
 * The MCP adapter of the operation list: a tool call hands its arguments and its payment
 * (`_meta["x402/payment"]`, the x402 MCP transport) to the same call core as HTTP, which parses
 * and validates on the compute pool before anything about payment, and turns the outcome into a
 * tool result (toolResults.ts).
 */
export function mcpServerFactory(options: McpServerOptions): (admitPayer?: PayerAdmission) => Server {
  // Built once: the transport is stateless, so a server is made for every POST /mcp.
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  return (admitPayer) => createMcpServer(options, byName, admitPayer);
}

/** `admitPayer`: the payer rate limit of the calling client address (rateLimit.ts), the same buckets as HTTP's. */
function createMcpServer(
  options: McpServerOptions,
  byName: ReadonlyMap<string, McpTool>,
  admitPayer?: PayerAdmission,
): Server {
  const server = new Server(
    { name: 'invoice-pdf-x402', title: 'Invoice PDF API', version: options.version },
    { capabilities: { tools: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map(({ route: _route, ...tool }) => tool),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool)
      return resultOfError(new AppError('not_found', `No tool named ${request.params.name}; tools/list names them.`));
    const payment: unknown = request.params._meta?.['x402/payment'];
    // A sign-in-with-x payload (the SIGN-IN-WITH-X header's JSON) for a free re-download.
    const signIn: unknown = request.params._meta?.['sign-in-with-x'];
    try {
      const outcome = await options.caller.call(tool.route, {
        body: { value: request.params.arguments ?? {} },
        ...(payment === undefined ? {} : { payment: { payload: payment } }),
        signal: extra.signal,
        hooks: { admitPayer, ...(signIn === undefined ? {} : { signIn: { payload: signIn } }) },
      });
      return resultOfOutcome(tool.name, outcome);
    } catch (thrown) {
      const error = thrown instanceof AppError ? thrown : internalError(thrown);
      if (!(thrown instanceof AppError)) options.logError(thrown, { tool: tool.name });
      return resultOfError(error);
    }
  });
  return server;
}
