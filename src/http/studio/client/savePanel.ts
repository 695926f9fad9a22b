import * as v from 'valibot';
import { call, failureText, jsonRequest, readJson } from './api.js';
import { buyCommands, invoiceInDesign, SavedSchema, type DesignPackage } from './designPackage.js';

/**
 * Save: PUT /v1/templates stores the package and answers its id; the page shows the id with a ready
 * request to buy an invoice in the design (the JSON, curl for the 402 offer, `npm run buy` to pay).
 */
export interface SaveOptions {
  button: HTMLButtonElement;
  status: HTMLElement;
  saved: HTMLElement;
  savedId: HTMLElement;
  json: HTMLElement;
  commands: HTMLElement;
  download: HTMLAnchorElement;
  design(): DesignPackage | undefined;
  invoice(): Record<string, unknown> | undefined;
  onSaved(id: string): void;
  /** The check's issues of a refused package, for the report and the editors. */
  onRefused(issues: readonly unknown[]): void;
}

export interface SavePanel {
  /** The text changed after a save: the shown id is no longer what the editors hold. */
  changed(): void;
  /** The invoice (picker, language, envelope, fonts) changed: the ready request follows it. */
  invoiceChanged(): void;
}

export function savePanel(options: SaveOptions): SavePanel {
  const { button, status, saved } = options;
  let downloadUrl: string | undefined;
  let savedId: string | undefined;

  const showRequest = (id: string, invoice: Record<string, unknown>) => {
    const json = JSON.stringify(invoiceInDesign(invoice, id), null, 2);
    options.savedId.textContent = id;
    options.json.textContent = json;
    options.commands.textContent = buyCommands(location.origin);
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(new Blob([json + '\n'], { type: 'application/json' }));
    options.download.href = downloadUrl;
  };

  button.addEventListener('click', async () => {
    const design = options.design();
    const invoice = options.invoice();
    if (!design || !invoice) return;
    button.disabled = true;
    status.textContent = 'Saving…';
    try {
      const answer = await call(fetch, '/v1/templates', jsonRequest('PUT', design), readJson);
      if (!answer.ok) {
        if (answer.failure.kind === 'rejected') options.onRefused(answer.failure.issues);
        status.textContent = failureText(answer.failure, 'Saving');
        return;
      }
      const parsed = v.safeParse(SavedSchema, answer.value);
      if (!parsed.success) {
        status.textContent = 'The service answered something this page does not understand.';
        return;
      }
      const { id, expires_in_seconds: expires } = parsed.output;
      savedId = id;
      showRequest(id, invoice);
      saved.hidden = false;
      saved.classList.remove('stale');
      status.textContent = `Saved as ${id}${expires ? `, kept for ${describeSeconds(expires)}` : ''}.`;
      options.onSaved(id);
    } finally {
      button.disabled = false;
    }
  });

  return {
    invoiceChanged() {
      const invoice = options.invoice();
      if (savedId && invoice && !saved.classList.contains('stale')) showRequest(savedId, invoice);
    },
    changed() {
      if (saved.hidden || saved.classList.contains('stale')) return;
      saved.classList.add('stale');
      status.textContent = 'Changed since the last save: Save again for the id of what you see.';
    },
  };
}

function describeSeconds(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} ${seconds === 86_400 ? 'day' : 'days'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} ${seconds === 3600 ? 'hour' : 'hours'}`;
  return `${seconds} s`;
}
