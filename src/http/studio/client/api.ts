/**
 * The studio's calls to the service's free routes, and what their failures mean to a designer:
 * each call answers a value or a failure the page can say in a sentence. Nothing here touches the
 * page, so it is tested in Node with a fetch double.
 */

/** An issue of a 400 answer or of the check's report (docs/templates.md). */
export interface Issue {
  path: string;
  code: string;
  message: string;
  line?: number;
  column?: number;
  /** The reference invoice a missing fact was found on. */
  invoice?: string;
}

export type Failure =
  | { kind: 'network' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'rejected'; status: number; code: string; message: string; issues: Issue[] }
  | { kind: 'server'; status: number };

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * One call: the answer read by `read` when it is a 2xx, else the failure. An abort (a superseded
 * request) is rethrown: the caller that aborted it expects no answer.
 */
export async function call<T>(
  fetchFn: Fetch,
  url: string,
  init: RequestInit,
  read: (response: Response) => Promise<T>,
): Promise<Outcome<T>> {
  let response: Response;
  try {
    response = await fetchFn(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    return { ok: false, failure: { kind: 'network' } };
  }
  if (response.ok) {
    try {
      return { ok: true, value: await read(response) };
    } catch (error) {
      if (init.signal?.aborted) throw error;
      return { ok: false, failure: { kind: 'network' } };
    }
  }
  return { ok: false, failure: await failureOf(response) };
}

async function failureOf(response: Response): Promise<Failure> {
  if (response.status === 429) {
    const seconds = Number(response.headers.get('Retry-After'));
    return {
      kind: 'rate_limited',
      retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1,
    };
  }
  if (response.status >= 400 && response.status < 500) {
    const body = (await response.json().catch(() => undefined)) as
      { error?: { code?: unknown; message?: unknown; issues?: unknown } } | undefined;
    const error = body?.error;
    return {
      kind: 'rejected',
      status: response.status,
      code: typeof error?.code === 'string' ? error.code : `http_${response.status}`,
      message: typeof error?.message === 'string' ? error.message : `The service answered ${response.status}.`,
      issues: Array.isArray(error?.issues) ? error.issues.filter(isIssue) : [],
    };
  }
  return { kind: 'server', status: response.status };
}

export function isIssue(value: unknown): value is Issue {
  if (typeof value !== 'object' || value === null) return false;
  const issue = value as Record<string, unknown>;
  return (
    typeof issue.path === 'string' &&
    typeof issue.code === 'string' &&
    typeof issue.message === 'string' &&
    (issue.line === undefined || typeof issue.line === 'number') &&
    (issue.column === undefined || typeof issue.column === 'number') &&
    (issue.invoice === undefined || typeof issue.invoice === 'string')
  );
}

/**
 * The failure in one sentence for the page, saying what happened to the designer's text (kept).
 * The service's own message is shown for a refusal; never a body that is not the error shape.
 */
export function failureText(failure: Failure, what: string): string {
  switch (failure.kind) {
    case 'network':
      return `${what} failed: the service could not be reached (network error). Your text is kept in this browser.`;
    case 'rate_limited':
      return `${what} paused: too many requests (429, the service's rate limit). Trying again in ${failure.retryAfterSeconds} s; your text is kept.`;
    case 'rejected':
      return `${what} refused (${failure.status} ${failure.code}): ${failure.message}`;
    case 'server':
      return `${what} failed: the service answered ${failure.status}. Your text is kept; try again in a moment.`;
  }
}

export const readJson = (response: Response): Promise<unknown> => response.json();
export const readBytes = async (response: Response): Promise<Uint8Array> =>
  new Uint8Array(await response.arrayBuffer());

export const jsonRequest = (method: 'POST' | 'PUT', body: unknown, signal?: AbortSignal): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
  ...(signal ? { signal } : {}),
});
