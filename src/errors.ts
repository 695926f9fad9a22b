/**
 * The one error family of the service. Every failure that reaches a client is an AppError with an
 * HTTP status, a stable snake_case code and a message safe to show; one middleware renders them
 * all as { error: { code, message, issues? } }.
 */
export interface Issue {
  /** Where the problem is, e.g. "line_items[3].quantity"; "" for the body itself. */
  path: string;
  code: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: Issue[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, options: { issues?: Issue[]; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }

  /** The JSON body every 4xx/5xx carries. */
  toBody(): { error: { code: string; message: string; issues?: Issue[] } } {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } };
  }
}

export function validationFailed(issues: Issue[]): AppError {
  const count = issues.length;
  const first = issues[0];
  const summary = count === 1 && first ? `${first.path || 'body'}: ${first.message}` : `${count} problems found; see issues`;
  return new AppError(400, 'validation_failed', `The request body is invalid: ${summary}.`, { issues });
}

/** A single-issue 400 whose code is also the error code (discount_exceeds_subtotal, amount_out_of_range). */
export function rejected(code: string, message: string, issues: Issue[]): AppError {
  return new AppError(400, code, message, { issues });
}

export const internalError = (cause?: unknown): AppError =>
  new AppError(500, 'internal_error', 'Something went wrong on our side. Please try again.', { cause });
