import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout. Secrets never reach a log line: payment headers and
 * authorization headers are redacted wherever they appear.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["payment-signature"]', '*.privateKey', '*.authHeader', 'headers.authorization'],
      censor: '[redacted]',
    },
  });
}
