import type { Issue } from '../errors.js';

/**
 * One problem of a package, as PUT /v1/templates and POST /v1/templates/check answer it: `path`
 * names the file ("html", "css", "partials.<name>") or, for the content contract, the invoice field;
 * `line` and `column` are 1-based places in that file; `invoice` the reference invoice that showed
 * a missing or hidden fact.
 */
export interface TemplateIssue extends Issue {
  line?: number;
  column?: number;
  invoice?: string;
  /** Why a fact that is on the page is not seen (hidden_fact; render/factsOnPage.ts). */
  reason?: string;
}

/** The file a package's issue is about, as a path. */
export type TemplateFile = 'html' | 'css' | `partials.${string}`;

export const issueAt = (
  path: TemplateFile,
  code: string,
  message: string,
  place?: { line: number; column: number } | undefined,
): TemplateIssue => ({ path, code, message, ...(place ? { line: place.line, column: place.column } : {}) });
