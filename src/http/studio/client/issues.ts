import type { Issue } from './api.js';

/**
 * The check's issues sorted for the page: those about a file of the package (path `html`, `css`,
 * `partials.<name>`) go into that file's editor at their line; the content contract's missing
 * facts (path = the invoice field) are grouped by field with the reference invoices that miss it.
 */
export interface FileIssue extends Issue {
  /** The editor's key: html, css or partials.<name>. */
  file: string;
}

export interface MissingFact {
  field: string;
  message: string;
  /** The reference invoices' ids on which the page does not show the field. */
  invoices: string[];
}

export interface SortedIssues {
  files: FileIssue[];
  facts: MissingFact[];
  /** Anything else a refusal named (e.g. a field of the preview's invoice). */
  others: Issue[];
}

const FILE_PATH = /^(html|css|partials\.[^.].*)$/;

export function sortIssues(issues: readonly Issue[]): SortedIssues {
  const files: FileIssue[] = [];
  const facts = new Map<string, MissingFact>();
  const others: Issue[] = [];
  for (const issue of issues) {
    if (issue.code !== 'missing_fact') {
      if (FILE_PATH.test(issue.path)) files.push({ ...issue, file: issue.path });
      else others.push(issue);
      continue;
    }
    const fact = facts.get(issue.path) ?? { field: issue.path, message: issue.message, invoices: [] };
    if (issue.invoice && !fact.invoices.includes(issue.invoice)) fact.invoices.push(issue.invoice);
    facts.set(issue.path, fact);
  }
  return { files, facts: [...facts.values()], others };
}

/** The name an editor and its tab carry: HTML, CSS, or the partial's own name. */
export function fileLabel(file: string): string {
  if (file === 'html') return 'HTML';
  if (file === 'css') return 'CSS';
  return file.startsWith('partials.') ? file.slice('partials.'.length) : file;
}

/** "CSS, line 3, column 5: message" (the place as the check names it). */
export function fileIssueText(issue: FileIssue): string {
  const place = [fileLabel(issue.file)];
  if (issue.line !== undefined) place.push(`line ${issue.line}`);
  if (issue.column !== undefined) place.push(`column ${issue.column}`);
  return `${place.join(', ')}: ${issue.message}`;
}

/** "totals.due is not shown on: One line, Credit note (message)" with the invoices' titles. */
export function missingFactText(fact: MissingFact, titles: ReadonlyMap<string, string>): string {
  const on = fact.invoices.map((id) => titles.get(id) ?? id);
  return `${fact.field}: ${fact.message}${on.length ? ` (reference invoices: ${on.join(', ')})` : ''}`;
}

/**
 * Where an issue sits in its file as offsets for the editor: the named line (clamped into the
 * text), from the column when one is named, to the line's end; the first line when none is named.
 */
export function issueRange(
  lines: readonly string[],
  issue: Pick<Issue, 'line' | 'column'>,
): { line: number; from: number; to: number } {
  const line = Math.min(Math.max(issue.line ?? 1, 1), Math.max(lines.length, 1));
  let start = 0;
  for (let index = 0; index < line - 1; index += 1) start += (lines[index]?.length ?? 0) + 1;
  const length = lines[line - 1]?.length ?? 0;
  const column = Math.min(Math.max((issue.column ?? 1) - 1, 0), length);
  return { line, from: start + (length === 0 ? 0 : Math.min(column, length - 1)), to: start + length };
}
