import { call, failureText, jsonRequest, readBytes, type Issue } from './api.js';
import { latest, type Latest } from './latest.js';
import { pdfPageImages } from './pdfPages.js';

/**
 * The preview: POST /v1/templates/preview with the package and the picked invoice, a pause after
 * typing (debounced; a newer preview aborts an older one), its PDF drawn page by page as images
 * named "Page 1", "Page 2"… A failure keeps the last pages (marked out of date) and says why.
 */
export interface PreviewOptions {
  /** The request body, or undefined while there is nothing to preview yet. */
  body(): { design: unknown; invoice: Record<string, unknown> } | undefined;
  title(): string;
  pages: HTMLElement;
  status: HTMLElement;
  retry: HTMLButtonElement;
  /** The refusal's issues (a package the check refuses), for the editors. */
  onRefused(issues: Issue[]): void;
}

/** The refusals of a package by the upload check (docs/templates.md). */
const DESIGN_REFUSALS = new Set(['template_invalid', 'template_incomplete']);

/** Pause after the last keystroke before a preview is asked for. */
const PAUSE_MS = 400;

export function previewPanel(options: PreviewOptions): Latest {
  const { pages, status, retry } = options;
  let urls: string[] = [];
  let shown = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const say = (text: string, state: 'busy' | 'fresh' | 'stale') => {
    status.textContent = text;
    pages.dataset.state = state;
    pages.setAttribute('aria-busy', String(state === 'busy'));
  };

  const runner = latest(
    async (signal) => {
      clearTimeout(retryTimer);
      retry.hidden = true;
      const body = options.body();
      if (!body) return;
      say('Updating the preview…', 'busy');
      const answer = await call(fetch, '/v1/templates/preview', jsonRequest('POST', body, signal), readBytes);
      if (!answer.ok) {
        const { failure } = answer;
        if (failure.kind === 'rejected' && failure.issues.length) {
          options.onRefused(failure.issues);
          // A package the check refuses waits for the designer's fix; anything else (an invoice the
          // envelope cannot take, a design past the preview's page limit) is said as the service says it.
          say(
            DESIGN_REFUSALS.has(failure.code)
              ? `The preview waits for a design the check accepts: ${failure.issues.length} ${failure.issues.length === 1 ? 'issue' : 'issues'}, listed in the content contract report and marked in the editors.`
              : failureText(failure, 'The preview'),
            'stale',
          );
          return;
        }
        say(failureText(failure, 'The preview'), 'stale');
        if (failure.kind === 'rate_limited')
          retryTimer = setTimeout(() => runner.now(), failure.retryAfterSeconds * 1000);
        else retry.hidden = false;
        return;
      }
      const images = await pdfPageImages(answer.value, signal);
      signal.throwIfAborted();
      const next = images.map((image, index) => {
        const img = document.createElement('img');
        img.alt = `Page ${index + 1}`;
        img.width = image.width;
        img.height = image.height;
        img.src = URL.createObjectURL(image.blob);
        return img;
      });
      for (const url of urls) URL.revokeObjectURL(url);
      urls = next.map((img) => img.src);
      pages.replaceChildren(...next);
      // How many previews were shown: a test waits for the next one.
      shown += 1;
      pages.dataset.shown = String(shown);
      say(
        `${options.title()}: ${next.length} ${next.length === 1 ? 'page' : 'pages'}, watermarked PREVIEW, as printed at ${new Date().toLocaleTimeString('en-GB')}.`,
        'fresh',
      );
    },
    {
      delayMs: PAUSE_MS,
      onError: (error) => {
        say(`The preview could not be drawn (${error instanceof Error ? error.message : String(error)}).`, 'stale');
        retry.hidden = false;
      },
    },
  );
  retry.addEventListener('click', () => runner.now());
  return runner;
}
