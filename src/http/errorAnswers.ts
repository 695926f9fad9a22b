import { AppError, InputRejected, type ErrorCode } from '../errors.js';

/**
 * The one table from error codes to HTTP: status and headers (Retry-After tells a well-behaved
 * client when to come back). Domain code never picks a status; a new code must be added here or
 * type-checking fails.
 */
interface ErrorAnswer {
  status: number;
  /** Status when an upstream timed out rather than failed (AppError.timedOut). */
  timeoutStatus?: number;
  retryAfterSeconds?: number;
}

const ANSWERS: Record<ErrorCode, ErrorAnswer> = {
  invalid_json: { status: 400 },
  invalid_body_encoding: { status: 400 },
  invalid_payment_header: { status: 400 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  payment_in_progress: { status: 409, retryAfterSeconds: 5 },
  payment_reused: { status: 409 },
  payload_too_large: { status: 413 },
  unsupported_media_type: { status: 415 },
  // Retry-After is the bucket's own (AppError.retryAfterSeconds, rateLimit.ts).
  rate_limited: { status: 429 },
  payment_header_too_large: { status: 431 },
  internal_error: { status: 500 },
  not_implemented: { status: 501 },
  payment_unavailable: { status: 501 },
  // Something upstream of ours failed (Chromium, the facilitator); the payment is not settled.
  render_timeout: { status: 502 },
  render_failed: { status: 502 },
  facilitator_unavailable: { status: 502 },
  facilitator_timeout: { status: 504 },
  // Never a 402: the client must re-send the same signature, not pay again.
  settlement_unknown: { status: 502, timeoutStatus: 504, retryAfterSeconds: 10 },
  renderer_busy: { status: 503, retryAfterSeconds: 1 },
  // The helpers' worker threads have a full queue (operationPool.ts).
  server_busy: { status: 503, retryAfterSeconds: 1 },
  renderer_unavailable: { status: 503, retryAfterSeconds: 1 },
  shutting_down: { status: 503, retryAfterSeconds: 1 },
  payment_store_unavailable: { status: 503, retryAfterSeconds: 2 },
  // PUT /v1/themes, or an invoice naming a stored theme, while Redis is unreachable.
  theme_store_unavailable: { status: 503, retryAfterSeconds: 2 },
};

/** Rejected input (validation_failed and every business rule's code) is the client's to fix. */
const INPUT_REJECTED: ErrorAnswer = { status: 400 };

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
}

const answerOf = (error: AppError) => (error instanceof InputRejected ? INPUT_REJECTED : ANSWERS[error.code as ErrorCode] ?? ANSWERS.internal_error);

export function httpAnswerOf(error: AppError): HttpAnswer {
  const answer = answerOf(error);
  const status = error.timedOut && answer.timeoutStatus ? answer.timeoutStatus : answer.status;
  const retryAfterSeconds = retryAfterSecondsOf(error);
  return { status, headers: retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {} };
}

/** When to try again (HTTP's Retry-After; MCP has no headers and puts it in the error body). */
export const retryAfterSecondsOf = (error: AppError): number | undefined => error.retryAfterSeconds ?? answerOf(error).retryAfterSeconds;
