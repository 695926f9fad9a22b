import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Middleware } from 'koa';
import type { PayerAdmission } from '../../payment/paymentProcessor.js';
import { jsonBody } from '../jsonBody.js';

export const MCP_PATH = '/mcp';

/**
 * POST /mcp: the MCP streamable HTTP transport, stateless (no session: every request is answered
 * by a fresh server over the same tools, so any instance behind the load balancer can answer) and
 * with JSON answers rather than an event stream. The body goes through the API's JSON parser
 * (same limit, same 415/413/400); a JSON-RPC batch is refused. GET (a server-sent event stream)
 * and DELETE (end a session) have nothing to do without sessions: 405.
 */
export function mcpEndpoint(buildServer: (admitPayer?: PayerAdmission) => Server, bodyLimitBytes: number): Middleware {
  const parse = jsonBody(bodyLimitBytes);
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this stateless MCP server answers POST only.' },
        id: null,
      };
      return;
    }
    await parse(ctx, async () => {
      // One message per POST: a batch would run up to 100 tool calls for one rate-limit token
      // (MCP 2025-06-18 dropped JSON-RPC batching; the SDK's client never sends one).
      if (Array.isArray(ctx.request.body)) {
        ctx.status = 400;
        ctx.body = {
          jsonrpc: '2.0',
          error: {
            code: -32600,
            message: 'Invalid Request: send one JSON-RPC message per POST; batches are not accepted.',
          },
          id: null,
        };
        return;
      }
      // The payer limit of this client address (rateLimit.ts): paid tool calls take from it.
      const server = buildServer(ctx.state.admitPayer as PayerAdmission | undefined);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      ctx.respond = false; // the transport writes the answer itself
      ctx.res.once('close', () => {
        void transport.close();
        void server.close();
      });
      await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
    });
  };
}
