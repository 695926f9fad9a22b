/**
 * The one error family of the service. A failure a client may see is an AppError with a stable
 * snake_case code and a message safe to show; it says nothing about HTTP. The one table that turns
 * codes into statuses and headers is src/http/errorAnswers.ts, and errorMiddleware.ts renders every
 * error as { error: { code, message, issues? } }.
 */
export interface Issue {
  /** Where the problem is, e.g. "line_items[3].quantity"; "" for the body itself. */
  path: string;
  code: string;
  message: string;
}

/** Every code an AppError can carry, besides the codes of rejected input (InputRejected). */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_body_encoding'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_implemented'
  | 'forbidden'
  | 'shutting_down'
  | 'payment_unavailable'
  | 'invalid_payment_header'
  | 'invalid_sign_in_header'
  | 'payment_header_too_large'
  | 'payment_in_progress'
  | 'payment_reused'
  | 'payment_store_unavailable'
  | 'rate_limited'
  | 'server_busy'
  | 'facilitator_timeout'
  | 'facilitator_unavailable'
  | 'settlement_unknown'
  | 'renderer_busy'
  | 'renderer_unavailable'
  | 'render_timeout'
  | 'render_failed'
  | 'theme_store_unavailable'
  | 'internal_error';

export class AppError extends Error {
  readonly code: string;
  readonly issues: Issue[] | undefined;
  /** An upstream (the facilitator) timed out rather than failed: the same code, a different answer. */
  readonly timedOut: boolean;
  /**
   * When a retry can succeed, if only this error knows (a rate limit's bucket): HTTP sends it as
   * Retry-After, MCP in the error body. Codes with a fixed delay have it in errorAnswers.ts.
   */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { issues?: Issue[]; cause?: unknown; timedOut?: boolean; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.issues = options.issues;
    this.timedOut = options.timedOut ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The JSON body every error answer carries. */
  toBody(): { error: { code: string; message: string; issues?: Issue[] } } {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } };
  }
}

/**
 * The request's input is wrong: validation_failed with every issue, or a business rule's own code
 * (discount_exceeds_subtotal, amount_out_of_range, ...). Domain code adds rule codes freely; they
 * all answer alike.
 */
export class InputRejected extends AppError {
  constructor(code: string, message: string, issues: Issue[]) {
    // The rule codes are open-ended by design; the answer table keys on the class, not the code.
    super(code as ErrorCode, message, { issues });
    this.name = 'InputRejected';
  }
}

export function validationFailed(issues: Issue[]): InputRejected {
  const count = issues.length;
  const first = issues[0];
  const summary =
    count === 1 && first ? `${first.path || 'body'}: ${first.message}` : `${count} problems found; see issues`;
  return new InputRejected('validation_failed', `The request body is invalid: ${summary}.`, issues);
}

/** A single-issue rejection whose code is also the error code (discount_exceeds_subtotal, amount_out_of_range). */
export function rejected(code: string, message: string, issues: Issue[]): InputRejected {
  return new InputRejected(code, message, issues);
}

export const internalError = (cause?: unknown): AppError =>
  new AppError('internal_error', 'Something went wrong on our side. Please try again.', { cause });

/** A JSON body that is an array: every route takes an object. */
export const bodyIsAnArray = (): InputRejected =>
  validationFailed([{ path: '', code: 'invalid_type', message: 'must be a JSON object, not an array' }]);

/**
 * An error as plain data, for crossing a thread boundary (the compute pool): a domain error keeps
 * its kind, code, message and issues; anything else is an internal failure whose message and stack
 * are kept for the log only. Rebuilt by `errorFromData`, never recognised by name or message.
 */
export type ErrorData =
  | { kind: 'rejected'; code: string; message: string; issues: Issue[] }
  | { kind: 'app'; code: ErrorCode; message: string; issues?: Issue[]; timedOut: boolean; retryAfterSeconds?: number }
  | { kind: 'internal'; message: string; stack?: string };

export function errorToData(error: unknown): ErrorData {
  if (error instanceof InputRejected)
    return { kind: 'rejected', code: error.code, message: error.message, issues: error.issues ?? [] };
  if (error instanceof AppError) {
    return {
      kind: 'app',
      code: error.code as ErrorCode,
      message: error.message,
      ...(error.issues ? { issues: error.issues } : {}),
      timedOut: error.timedOut,
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  const { message, stack } = error instanceof Error ? error : new Error(String(error));
  return { kind: 'internal', message, ...(stack ? { stack } : {}) };
}

/** The error `errorToData` described: the same class, code, message and issues; an internal one stays a plain Error (a logged internal_error). */
export function errorFromData(data: ErrorData): Error {
  switch (data.kind) {
    case 'rejected':
      return new InputRejected(data.code, data.message, data.issues);
    case 'app':
      return new AppError(data.code, data.message, {
        ...(data.issues ? { issues: data.issues } : {}),
        timedOut: data.timedOut,
        ...(data.retryAfterSeconds !== undefined ? { retryAfterSeconds: data.retryAfterSeconds } : {}),
      });
    case 'internal': {
      const error = new Error(data.message);
      if (data.stack) error.stack = data.stack;
      return error;
    }
  }
}

/** A request body that is not JSON (or not an object or array): the client's to fix. */
export const invalidJson = (): AppError =>
  new AppError('invalid_json', 'The request body is not valid JSON (an object was expected).');

/** A `__proto__` key anywhere in a JSON body: refused as the body parser always has. */
export const forbiddenProtoKey = (): InputRejected =>
  new InputRejected('validation_failed', 'The request body is invalid: the key "__proto__" is not allowed.', [
    { path: '', code: 'forbidden_property', message: 'the key "__proto__" is not allowed anywhere in the body' },
  ]);
