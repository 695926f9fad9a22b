import { AppError } from '../errors.js';

/**
 * The errors a render can end in. Clients see a stable code and a message without internals; the
 * cause stays attached for the log. Busy is a 503 with Retry-After so that a well-behaved client
 * backs off instead of hammering a full queue; everything that went wrong inside Chromium is a 502
 * (an upstream of ours failed, and the payment is not settled).
 */
export const rendererBusy = (retryAfterSeconds: number, cause?: unknown): AppError =>
  new AppError(503, 'renderer_busy', 'All PDF renderers are busy and the queue is full. Please retry shortly.', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    cause,
  });

export const rendererClosed = (): AppError =>
  new AppError(503, 'renderer_unavailable', 'The PDF renderer is shutting down. Please retry shortly.', {
    headers: { 'Retry-After': '1' },
  });

export const renderTimeout = (timeoutMs: number): AppError =>
  new AppError(502, 'render_timeout', `The PDF could not be rendered within ${timeoutMs} ms.`);

export const renderFailed = (cause: unknown): AppError =>
  new AppError(502, 'render_failed', 'The PDF could not be rendered. Please try again.', { cause });
