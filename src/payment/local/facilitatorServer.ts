import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { x402Facilitator } from '@x402/core/facilitator';
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';

export interface FacilitatorServerOptions {
  /** Loopback by default; a container running the network for other containers binds 0.0.0.0. */
  host: string;
  /** 0 lets the OS pick a free port. */
  port: number;
  log?: (line: string) => void;
}

export interface FacilitatorServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// The x402 HTTP facilitator API: POST /verify, POST /settle with
// { x402Version, paymentPayload, paymentRequirements }, GET /supported. A verdict (isValid false,
// success false) is a 200 like any other answer; 4xx means the request itself was malformed and
// 500 that the facilitator failed, which HTTPFacilitatorClient turns into thrown errors.
export async function serveFacilitator(
  facilitator: x402Facilitator,
  opts: FacilitatorServerOptions,
): Promise<FacilitatorServer> {
  const log = opts.log ?? (() => {});
  const server = createServer((req, res) => {
    const started = performance.now();
    route(facilitator, req)
      .then((answer) => {
        send(res, 200, answer);
        log(`facilitator: ${req.method} ${req.url} ${summary(answer)} (${Math.round(performance.now() - started)} ms)`);
      })
      .catch((error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        const message = error instanceof Error ? error.message : String(error);
        send(res, status, { error: message });
        log(`facilitator: ${req.method} ${req.url} -> ${status} ${message}`);
      });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${opts.host}:${port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

async function route(facilitator: x402Facilitator, req: IncomingMessage): Promise<unknown> {
  const path = new URL(req.url ?? '/', 'http://facilitator').pathname;
  if (path === '/supported') {
    if (req.method !== 'GET') throw new HttpError(405, 'use GET');
    return facilitator.getSupported();
  }
  if (path !== '/verify' && path !== '/settle') throw new HttpError(404, `no route ${path}`);
  if (req.method !== 'POST') throw new HttpError(405, 'use POST');
  const { paymentPayload, paymentRequirements } = parseRequest(await readJson(req));
  return path === '/verify'
    ? facilitator.verify(paymentPayload, paymentRequirements)
    : facilitator.settle(paymentPayload, paymentRequirements);
}

function parseRequest(body: unknown): { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements } {
  if (typeof body !== 'object' || body === null) throw new HttpError(400, 'body must be a JSON object');
  const { x402Version, paymentPayload, paymentRequirements } = body as Record<string, unknown>;
  if (x402Version !== 2) throw new HttpError(400, 'x402Version must be 2');
  const payload = PaymentPayloadV2Schema.safeParse(paymentPayload);
  if (!payload.success) throw new HttpError(400, `invalid paymentPayload: ${payload.error.message}`);
  const requirements = PaymentRequirementsV2Schema.safeParse(paymentRequirements);
  if (!requirements.success) throw new HttpError(400, `invalid paymentRequirements: ${requirements.error.message}`);
  // The schemas only gate: pass on what was sent, unknown fields included (the parsed copies drop them).
  return {
    paymentPayload: paymentPayload as PaymentPayload,
    paymentRequirements: paymentRequirements as PaymentRequirements,
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function summary(answer: unknown): string {
  const a = answer as Record<string, unknown>;
  if ('isValid' in a) return a.isValid ? `valid payer=${String(a.payer)}` : `invalid ${String(a.invalidReason)}`;
  if ('success' in a) return a.success ? `settled tx=${String(a.transaction)}` : `not settled ${String(a.errorReason)}`;
  return 'ok';
}
