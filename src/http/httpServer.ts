import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../errors.js';
import { MAX_PAYMENT_HEADER_BYTES } from './paymentSignature.js';
import { httpAnswerOf } from './errorAnswers.js';

/**
 * Socket-level limits of the HTTP server. Node enforces headersTimeout and requestTimeout only when
 * it sweeps its connections, every `connectionsCheckingInterval` (30 s by default), so a 15 s
 * header limit used to bite at ~42 s; sweeping every second makes each limit effective within 1 s
 * of its setting.
 */
export interface ServerLimits {
  /** The whole header block; a real client's PAYMENT-SIGNATURE alone is 3.7–3.8 KB (up to 16 KiB allowed). */
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  checkIntervalMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  maxHeaderBytes: 32 * 1024,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

/** The HTTP server every instance (and the tests) listens with: the app plus the limits above. */
export function createHttpServer(listener: RequestListener, limits: ServerLimits = SERVER_LIMITS): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    listener,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, limits.maxHeaderBytes),
  );
  return server;
}

/**
 * Errors Node raises before a request reaches the app. With a listener Node no longer answers them
 * itself, so this does what it did (408 for a timeout, 400 for a parse error, then close), except
 * that an oversized header block gets the documented JSON 431 instead of an empty one.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, maxHeaderBytes: number): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const appError = new AppError(
      'payment_header_too_large',
      `The request headers are larger than ${maxHeaderBytes} bytes (PAYMENT-SIGNATURE may be at most ${MAX_PAYMENT_HEADER_BYTES} of them).`,
    );
    const body = JSON.stringify(appError.toBody());
    socket.end(
      `HTTP/1.1 ${httpAnswerOf(appError).status} Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  socket.end(
    timedOut
      ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'
      : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n',
  );
}
