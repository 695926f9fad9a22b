import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Context, Middleware } from 'koa';
import type { EnvelopeJobResult } from '../../operations/operationJobs.js';
import type { PayerAdmission } from '../../payment/paymentProcessor.js';
import { jsonTextOf } from '../../operations/requestJson.js';
import { jsonBytes } from '../jsonBody.js';
import type { McpServerFactory } from './mcpServer.js';
import { resultJsonOf } from './toolResults.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointOptions {
  server: McpServerFactory;
  /** Splits a POST's JSON bytes into the envelope and its arguments' JSON (UTF-8 bytes), on the compute pool. */
  splitEnvelope(bytes: Buffer | undefined): Promise<EnvelopeJobResult>;
  bodyLimitBytes: number;
}

type Envelope = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: Record<string, unknown> };

/**
 * POST /mcp: the MCP streamable HTTP transport, stateless (no session: any instance behind the load
 * balancer can answer) and with JSON answers rather than an event stream. The body is read as bytes
 * within the API's limit (jsonBytes: same 415/413/400), decoded and split on the compute pool: a
 * tools/call's arguments come back as their JSON text's bytes, parsed and validated on the pool
 * like an HTTP body (the event loop never holds either as a string), and the endpoint answers the
 * call itself, its JSON result's bytes spliced in. The SDK's transport took 15 ms of the event loop
 * per call of validate with 200 lines (parse, zod, a server and its Ajv per POST, the result parsed
 * and serialised twice; bench/mcpCost.ts); it still answers everything else (initialize,
 * tools/list, resources, a call it must refuse). A JSON-RPC batch is refused. GET and DELETE have
 * nothing to do without sessions: 405.
 */
export function mcpEndpoint(options: McpEndpointOptions): Middleware {
  const read = jsonBytes(options.bodyLimitBytes);
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = jsonRpcError(-32000, 'Method not allowed: this stateless MCP server answers POST only.');
      return;
    }
    await read(ctx, async () => {
      // A paid call's envelope goes ahead of free work, as its body does (callOperation.ts).
      const split = await options.splitEnvelope(ctx.request.body as Buffer | undefined);
      // One message per POST: a batch would run up to 100 tool calls for one rate-limit token
      // (MCP 2025-06-18 dropped JSON-RPC batching; the SDK's client never sends one).
      if (Array.isArray(split.envelope)) {
        ctx.status = 400;
        ctx.body = jsonRpcError(
          -32600,
          'Invalid Request: send one JSON-RPC message per POST; batches are not accepted.',
        );
        return;
      }
      const admitPayer = ctx.state.admitPayer as PayerAdmission | undefined;
      const envelope = split.envelope as Envelope;
      if (answersItself(ctx, envelope)) return answerToolCall(ctx, options.server, envelope, split, admitPayer);
      const message = split.member
        ? { ...envelope, params: { ...envelope.params, arguments: JSON.parse(jsonTextOf(split.member.bytes)) } }
        : envelope;
      await answerWithSdk(ctx, options.server, message, admitPayer);
    });
  };
}

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** A well-formed tools/call the SDK's transport would accept; anything else goes to it, for its own answer. */
function answersItself(ctx: Context, envelope: Envelope): boolean {
  const accept = ctx.get('accept');
  const version = ctx.get('mcp-protocol-version');
  return (
    envelope !== null &&
    typeof envelope === 'object' &&
    envelope.jsonrpc === '2.0' &&
    envelope.method === 'tools/call' &&
    (typeof envelope.id === 'string' || (typeof envelope.id === 'number' && Number.isInteger(envelope.id))) &&
    envelope.params !== null &&
    typeof envelope.params === 'object' &&
    typeof envelope.params.name === 'string' &&
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    (!version || SUPPORTED_PROTOCOL_VERSIONS.includes(version))
  );
}

async function answerToolCall(
  ctx: Context,
  server: McpServerFactory,
  envelope: Envelope,
  split: EnvelopeJobResult,
  admitPayer: PayerAdmission | undefined,
): Promise<void> {
  const params = envelope.params!;
  const meta = params._meta as Record<string, unknown> | undefined;
  // MCP's cancellation: a free operation's work stops when the client is gone.
  const gone = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) gone.abort();
  });
  const end = await server.callTool({
    name: params.name as string,
    args: split.member,
    payment: meta && typeof meta === 'object' ? meta['x402/payment'] : undefined,
    signIn: meta && typeof meta === 'object' ? meta['sign-in-with-x'] : undefined,
    signal: gone.signal,
    admitPayer,
  });
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = Buffer.concat([
    Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(envelope.id)},"result":`),
    ...resultJsonOf(end),
    Buffer.from('}'),
  ]);
}

async function answerWithSdk(
  ctx: Context,
  factory: McpServerFactory,
  message: unknown,
  admitPayer: PayerAdmission | undefined,
): Promise<void> {
  // The payer limit of this client address (rateLimit.ts): paid tool calls take from it.
  const server = factory.build(admitPayer);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  ctx.respond = false; // the transport writes the answer itself
  ctx.res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await transport.handleRequest(ctx.req, ctx.res, message);
}
