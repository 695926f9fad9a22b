import { AppError } from '../errors.js';

/**
 * The errors a render can end in. Clients see a stable code and a message without internals; the
 * cause stays attached for the log. What each one answers over HTTP (busy: 503 with Retry-After,
 * so a well-behaved client backs off; Chromium failures: 502) is src/http/errorAnswers.ts's.
 */
export const rendererBusy = (cause?: unknown): AppError =>
  new AppError(
    'renderer_busy',
    'All PDF renderers are busy and the queue is full. Please retry shortly; nothing was charged.',
    { cause },
  );

export const rendererClosed = (): AppError =>
  new AppError('renderer_unavailable', 'The PDF renderer is shutting down. Please retry shortly.');

export const renderTimeout = (timeoutMs: number): AppError =>
  new AppError('render_timeout', `The PDF could not be rendered within ${timeoutMs} ms.`);

export const renderFailed = (cause: unknown): AppError =>
  new AppError('render_failed', 'The PDF could not be rendered. Please try again.', { cause });
