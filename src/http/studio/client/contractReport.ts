import * as v from 'valibot';
import { call, failureText, isIssue, jsonRequest, readJson } from './api.js';
import { fileIssueText, missingFactText, sortIssues, type FileIssue } from './issues.js';
import { latest, type Latest } from './latest.js';

/**
 * The content contract's report beside the preview: POST /v1/templates/check on every pause, its
 * errors into the editors at their lines (and listed, each a button to go there), the facts a page
 * misses listed by field with the reference invoices that miss them.
 */
export interface ReportOptions {
  design(): unknown | undefined;
  titles(): ReadonlyMap<string, string>;
  summary: HTMLElement;
  list: HTMLElement;
  showFileIssues(issues: FileIssue[]): void;
  reveal(issue: FileIssue): void;
}

const CheckAnswerSchema = v.object({ ok: v.boolean(), issues: v.array(v.unknown()) });

const PAUSE_MS = 400;

export interface ContractReport extends Latest {
  /** Shows issues that another answer named (a refused preview or save). */
  show(issues: readonly unknown[]): void;
}

export function contractReport(options: ReportOptions): ContractReport {
  const { summary, list } = options;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const show = (raw: readonly unknown[]) => {
    const { files, facts, others } = sortIssues(raw.filter(isIssue));
    options.showFileIssues(files);
    const items = [
      ...files.map((issue) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'link';
        button.textContent = fileIssueText(issue);
        button.addEventListener('click', () => options.reveal(issue));
        return button;
      }),
      ...facts.map((fact) => missingFactText(fact, options.titles())),
      ...others.map((issue) => `${issue.path}: ${issue.message}`),
    ].map((content) => {
      const item = document.createElement('li');
      item.append(content);
      return item;
    });
    list.replaceChildren(...items);
    list.dataset.state = 'fresh';
    summary.textContent =
      files.length + facts.length + others.length === 0
        ? 'No issue: the design passes the upload check and shows every fact of the reference invoices.'
        : [
            files.length ? `${files.length} ${files.length === 1 ? 'error' : 'errors'} in the files` : '',
            facts.length ? `${facts.length} ${facts.length === 1 ? 'fact' : 'facts'} the page does not show` : '',
            others.length ? `${others.length} other ${others.length === 1 ? 'issue' : 'issues'}` : '',
          ]
            .filter(Boolean)
            .join(', ') + '.';
  };

  const runner = latest(
    async (signal) => {
      clearTimeout(retryTimer);
      const design = options.design();
      if (design === undefined) return;
      const answer = await call(fetch, '/v1/templates/check', jsonRequest('POST', design, signal), readJson);
      if (answer.ok) {
        const parsed = v.safeParse(CheckAnswerSchema, answer.value);
        if (parsed.success) return show(parsed.output.issues);
        summary.textContent = 'The check answered something this page does not understand; reload the page.';
        return;
      }
      // A package the route itself refuses (400) carries the same issues as a report.
      if (answer.failure.kind === 'rejected' && answer.failure.issues.length) return show(answer.failure.issues);
      list.dataset.state = 'stale';
      summary.textContent = `${failureText(answer.failure, 'The check')} The list below is from the last check.`;
      if (answer.failure.kind === 'rate_limited')
        retryTimer = setTimeout(() => runner.now(), answer.failure.retryAfterSeconds * 1000);
    },
    { delayMs: PAUSE_MS },
  );
  return { ...runner, show };
}
