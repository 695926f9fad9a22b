import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout; human-readable lines when a developer watches a terminal.
 * Secrets never reach a log line: payment and authorization headers are redacted wherever they
 * appear, and no code logs a signature, private key or auth header in the first place.
 */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["payment-signature"]',
        '*.privateKey',
        '*.authHeader',
        '*.authorization',
        '*.signature',
      ],
      censor: '[redacted]',
    },
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  });
}
