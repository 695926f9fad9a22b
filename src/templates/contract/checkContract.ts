import Handlebars from 'handlebars';
import { parse } from 'parse5';
import { prepareInvoice, type PreparedInvoice } from '../../invoice/prepareInvoice.js';
import { loadLabelCatalogs, type LabelCatalogs } from '../../render/labelCatalogs.js';
import { PROJECT_ROOT } from '../../render/templates.js';
import { buildInvoiceView } from '../../render/viewModel.js';
import type { InvoiceView } from '../../render/invoiceView.js';
import { checkFilledPage } from '../checkMarkup.js';
import { compilePackagePage, DESIGN_CSP } from '../../render/designPage.js';
import { FillTooLarge } from '../../render/fillBudget.js';
import type { TemplatePackage } from '../../invoice/templatePackage.js';
import { issueAt, type TemplateFile, type TemplateIssue } from '../templateIssue.js';
import { collapsed, factsOf, missingFacts } from '../../render/contractFacts.js';
import { pageText } from './pageText.js';
import { REFERENCE_INVOICES } from './referenceInvoices.js';

let catalogs: LabelCatalogs | undefined;
/** The service's label catalogs, read once per process (its own files). */
const contractCatalogs = (): LabelCatalogs => (catalogs ??= loadLabelCatalogs(PROJECT_ROOT));

/** A filled page's view model and the name its issues give (a reference invoice's id, or "preview"). */
interface ContractView {
  id: string;
  view: InvoiceView;
}

let references: ContractView[] | undefined;
/** The reference invoices' view models, built once per process. */
function referenceViews(): ContractView[] {
  references ??= REFERENCE_INVOICES.map(({ id, invoice }) => ({
    id,
    view: buildInvoiceView(prepareInvoice(invoice), contractCatalogs()),
  }));
  return references;
}

/**
 * The view model a preview's invoice fills the package with, before its stored theme and fonts are
 * looked up: without its theme (a theme changes the values of the look's fields, never which fields
 * there are).
 */
export function previewView(prepared: PreparedInvoice): ContractView {
  const { theme: _theme, ...invoice } = prepared.invoice;
  return { id: 'preview', view: buildInvoiceView({ ...prepared, invoice, theme: undefined }, contractCatalogs()) };
}

/**
 * The content contract: the package filled with every reference invoice (referenceInvoices.ts),
 * each page must show every fact of its invoice (contractFacts.ts), compared as text. A fill that
 * fails (a field the view model does not have, in strict mode) is template_invalid, placed in the
 * package's own file; markup that only forms once filled is refused as at upload (checkMarkup.ts).
 * `views` other than the reference invoices: the preview's one invoice, whose facts the print-time
 * check reads from the page instead (`facts: false`).
 */
export function checkContract(
  complete: Required<TemplatePackage>,
  own: readonly [TemplateFile, string][],
  { views = referenceViews(), facts = true }: { views?: readonly ContractView[]; facts?: boolean } = {},
): { invalid: TemplateIssue[]; incomplete: TemplateIssue[] } {
  const page = compilePackagePage<InvoiceView & { css: Handlebars.SafeString }>(complete);
  const invalid: TemplateIssue[] = [];
  const incomplete: TemplateIssue[] = [];
  const seen = new Set<string>();
  for (const { id, view } of views) {
    let html: string;
    try {
      html = page({ ...view, css: new Handlebars.SafeString('') });
    } catch (error) {
      invalid.push(fillIssue(error, own));
      return { invalid, incomplete };
    }
    // One parse of the filled page serves both the markup rules and the text (the contract's cost).
    const document = parse(html);
    for (const found of checkFilledPage(document, DESIGN_CSP)) {
      const key = `${found.code}\0${found.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      invalid.push(issueAt('html', found.code, `${found.message} (in the page filled with reference invoice ${id})`));
    }
    if (!facts) continue;
    for (const fact of missingFacts(factsOf(view), pageText(document))) {
      if (seen.has(`fact\0${fact.field}`)) continue;
      seen.add(`fact\0${fact.field}`);
      const shown = fact.text === undefined ? 'its QR code' : `"${collapsed(fact.text).slice(0, 60)}"`;
      incomplete.push({
        path: fact.field,
        code: 'missing_fact',
        message: `is not on the page: built-in designs show ${shown}`,
        invoice: id,
      });
    }
  }
  return { invalid, incomplete };
}

/**
 * A strict-mode fill error ('"foo" not defined in … - 3:7', with lineNumber and column): placed in
 * the package's own file that has the name at that place.
 */
function fillIssue(error: unknown, own: readonly [TemplateFile, string][]): TemplateIssue {
  if (error instanceof FillTooLarge) return issueAt(own[0]?.[0] ?? 'html', 'fill_too_large', error.message);
  const { message, lineNumber, column } = error as { message?: string; lineNumber?: number; column?: number };
  const text = String(message ?? error).replace(/ - \d+:\d+$/, '');
  const name = /^"([^"]+)" not defined/.exec(text)?.[1];
  if (name !== undefined && lineNumber !== undefined && column !== undefined) {
    const file = own.find(([, source]) => source.split('\n')[lineNumber - 1]?.slice(column).includes(name));
    const written = file && /^[\w.@/-]+/.exec(file[1].split('\n')[lineNumber - 1]!.slice(column))?.[0];
    if (file)
      return issueAt(file[0], 'unknown_field', `"${written ?? name}" is not a field of the data a template sees (docs/templates.md)`, {
        line: lineNumber,
        column: column + 1,
      });
  }
  return issueAt(own[0]?.[0] ?? 'html', name ? 'unknown_field' : 'fill_failed', text);
}
