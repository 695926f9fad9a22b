import * as v from 'valibot';
import { call, failureText, readJson } from './api.js';
import { contractReport } from './contractReport.js';
import {
  BuiltInDesignSchema,
  completePackage,
  DESIGN_ID,
  previewInvoice,
  ReferenceInvoicesSchema,
  StoredDesignSchema,
  type BrandFont,
  type DesignPackage,
  type ReferenceInvoice,
} from './designPackage.js';
import { loadDraft, saveDraft } from './draft.js';
import { fileTabs } from './fileTabs.js';
import { fontsPanel } from './fontsPanel.js';
import { latest } from './latest.js';
import { previewPanel } from './previewPanel.js';
import { savePanel } from './savePanel.js';

/**
 * The design studio's page script: wires the start forms, the file editors, the preview, the
 * content contract report, fonts and Save. State lives in the editors and this closure; a copy
 * is kept in local storage on every pause (draft.ts) and nothing reaches the service before Save
 * except the free check and preview requests.
 */
const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const select = (id: string) => element<HTMLSelectElement>(id);

const state = {
  base: 'classic',
  dataVersion: undefined as number | undefined,
  /** The opened package's `fonts` (family → font id or faces), kept as they are: the studio edits no font names. */
  packageFonts: undefined as DesignPackage['fonts'],
  fonts: [] as BrandFont[],
  invoices: [] as ReferenceInvoice[],
  savedId: undefined as string | undefined,
  opened: false,
};

const invoicePick = select('invoice-pick');
const languagePick = select('language-pick');
const envelopePick = select('envelope-pick');
const startStatus = element('start-status');

function currentPackage(): DesignPackage | undefined {
  if (!state.opened) return undefined;
  return {
    ...(state.dataVersion !== undefined ? { data_version: state.dataVersion } : {}),
    ...tabs.sources(),
    ...(state.packageFonts !== undefined ? { fonts: state.packageFonts } : {}),
  };
}

function currentInvoice(): Record<string, unknown> | undefined {
  const reference = state.invoices.find((invoice) => invoice.id === invoicePick.value);
  return (
    reference &&
    previewInvoice(reference.invoice, { locale: languagePick.value, envelope: envelopePick.value, fonts: state.fonts })
  );
}

const keepDraft = latest(
  async () => {
    const design = currentPackage();
    if (!design) return;
    const kept = saveDraft(localStorage, {
      version: 1,
      base: state.base,
      package: design,
      invoice: invoicePick.value,
      locale: languagePick.value,
      envelope: envelopePick.value,
      fonts: state.fonts,
      ...(state.savedId ? { savedId: state.savedId } : {}),
    });
    if (!kept)
      startStatus.textContent = 'This browser refused to keep the draft (storage full or off): Save to keep it.';
  },
  { delayMs: 300 },
);

const tabs = fileTabs(element('file-tabs'), element('editors'), () => {
  state.savedId = undefined;
  save.changed();
  keepDraft.schedule();
  preview.schedule();
  report.schedule();
});

const report = contractReport({
  design: currentPackage,
  titles: () => new Map(state.invoices.map((invoice) => [invoice.id, invoice.title])),
  summary: element('report-summary'),
  list: element('report-list'),
  showFileIssues: (issues) => tabs.showIssues(issues),
  reveal: (issue) => tabs.reveal(issue),
});

const preview = previewPanel({
  body: () => {
    const design = currentPackage();
    const invoice = currentInvoice();
    return design && invoice ? { design, invoice } : undefined;
  },
  title: () => invoicePick.selectedOptions[0]?.textContent ?? 'The invoice',
  pages: element('pages'),
  status: element('preview-status'),
  retry: element<HTMLButtonElement>('preview-retry'),
  onRefused: (issues) => report.show(issues),
});

const fonts = fontsPanel({
  input: element<HTMLInputElement>('font-file'),
  status: element('font-status'),
  list: element('font-list'),
  fonts: () => state.fonts,
  setFonts: (next) => {
    state.fonts = next;
    // The fonts are the invoice's (its theme), not the package's: the saved id stays valid.
    save.invoiceChanged();
    keepDraft.schedule();
    preview.now();
  },
});

const save = savePanel({
  button: element<HTMLButtonElement>('save'),
  status: element('save-status'),
  saved: element('saved'),
  savedId: element('saved-id'),
  json: element('buy-json'),
  commands: element('buy-commands'),
  download: element<HTMLAnchorElement>('buy-json-download'),
  design: currentPackage,
  invoice: currentInvoice,
  onSaved: (id) => {
    state.savedId = id;
    keepDraft.now();
  },
  onRefused: (issues) => report.show(issues),
});

function open(design: DesignPackage, base: string, savedId?: string) {
  state.base = base;
  state.savedId = savedId;
  state.dataVersion = design.data_version;
  state.packageFonts = design.fonts;
  state.opened = true;
  tabs.open(design);
  fonts.render();
  keepDraft.now();
  preview.now();
  report.now();
}

async function fork(name: string): Promise<void> {
  startStatus.textContent = `Forking ${name}…`;
  const answer = await call(fetch, `/v1/templates/${encodeURIComponent(name)}`, {}, readJson);
  if (!answer.ok) {
    startStatus.textContent = failureText(answer.failure, `Forking ${name}`);
    return;
  }
  const parsed = v.safeParse(BuiltInDesignSchema, answer.value);
  if (!parsed.success) {
    startStatus.textContent = `The service answered something this page does not understand for ${name}.`;
    return;
  }
  const { name: _name, ...design } = parsed.output;
  open(design, name);
  startStatus.textContent = `Forked ${name}. Your edits stay in this browser until you press Save.`;
}

async function load(id: string): Promise<void> {
  if (!DESIGN_ID.test(id)) {
    startStatus.textContent = 'A design id is sha256: followed by 64 lowercase hex digits, as Save shows it.';
    element('load-id').focus();
    return;
  }
  startStatus.textContent = `Loading ${id}…`;
  const [stored, classic] = await Promise.all([
    call(fetch, `/v1/templates/${id}`, {}, readJson),
    call(fetch, '/v1/templates/classic', {}, readJson),
  ]);
  if (!stored.ok) {
    const failure = stored.failure;
    startStatus.textContent =
      failure.kind === 'rejected' && failure.status === 404
        ? `No design is stored under ${id}. Check the id (stored designs expire), or fork a built-in design.`
        : failureText(failure, `Loading ${id}`);
    return;
  }
  const parsedStored = v.safeParse(StoredDesignSchema, stored.value);
  const parsedClassic = classic.ok ? v.safeParse(BuiltInDesignSchema, classic.value) : undefined;
  if (!parsedStored.success || !parsedClassic?.success) {
    startStatus.textContent = classic.ok
      ? 'The service answered something this page does not understand.'
      : failureText(classic.failure, 'Loading the built-in classic design');
    return;
  }
  open(completePackage(parsedStored.output, parsedClassic.output), id);
  startStatus.textContent = `Loaded ${id}. Your edits stay in this browser until you press Save (a new id).`;
}

async function loadInvoices(): Promise<void> {
  const answer = await call(fetch, '/v1/templates/reference-invoices', {}, readJson);
  const parsed = answer.ok ? v.safeParse(ReferenceInvoicesSchema, answer.value) : undefined;
  if (!parsed?.success) {
    element('preview-status').textContent = answer.ok
      ? 'The reference invoices could not be read; reload the page.'
      : failureText(answer.failure, 'Loading the reference invoices');
    return;
  }
  state.invoices = parsed.output;
  invoicePick.replaceChildren(...state.invoices.map((invoice) => new Option(invoice.title, invoice.id)));
}

function pickerChanged() {
  save.invoiceChanged();
  keepDraft.schedule();
  preview.now();
}
for (const picker of [invoicePick, languagePick, envelopePick]) picker.addEventListener('change', pickerChanged);

element<HTMLFormElement>('fork-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void fork(select('fork-design').value);
});
element<HTMLFormElement>('load-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void load(element<HTMLInputElement>('load-id').value.trim());
});

async function boot(): Promise<void> {
  await loadInvoices();
  const draft = loadDraft(localStorage);
  if (draft) {
    for (const [picker, value] of [
      [invoicePick, draft.invoice],
      [languagePick, draft.locale],
      [envelopePick, draft.envelope],
    ] as const) {
      if (Array.from(picker.options).some((option) => option.value === value)) picker.value = value;
    }
    state.fonts = draft.fonts;
    open(draft.package, draft.base, draft.savedId);
    startStatus.textContent = `Restored your unsaved work on ${draft.base} from this browser.`;
  } else {
    await fork(select('fork-design').value);
  }
  element('studio').dataset.ready = 'true';
}

void boot();
