import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { eachTurn } from './eachTurn.js';
import type { InvoiceView } from './invoiceView.js';
import type { InvoiceTemplates } from './templates.js';

/**
 * The views of the content contract's reference invoices (src/templates/contract/referenceInvoices.ts),
 * which every new design is filled with: at upload (designFacts.ts) and for its print-time
 * coverage (designCheck.ts). Built on the event loop, they cost as much as the fills: the 200-line
 * one's view and the five payment QR codes' SVGs were most of the first design check's 170-180 ms of
 * loop CPU in the flood of reliability 11 (docs/reliability.md). A view depends on the prepared
 * invoice and the label catalogs, not on the design it is filled with (a customer's design prints
 * over classic's view, lookView.ts), so each is built once per load of the templates and kept.
 */
export interface ReferenceViews {
  /** The view of `prepared`: the kept one when it is a reference invoice (carrying a design or not), otherwise built. */
  view(prepared: PreparedInvoice): InvoiceView;
  /** Builds the references' views ahead, one per turn of the event loop (again after a reload). */
  buildAhead(): void;
}

export function referenceViews(
  templates: InvoiceTemplates,
  /** The reference invoices as prepared (stable objects); none: every view is built. */
  references: () => readonly PreparedInvoice[],
): ReferenceViews {
  let kept = new WeakMap<PreparedInvoice, InvoiceView>();
  let ahead = false;
  const keptView = (reference: PreparedInvoice) => {
    let view = kept.get(reference);
    if (!view) kept.set(reference, (view = templates.view(reference)));
    return view;
  };
  const build = () => eachTurn(references(), keptView, () => undefined);
  // New label catalogs, new views.
  templates.onReload(() => {
    kept = new WeakMap();
    if (ahead) build();
  });
  return {
    view(prepared) {
      const reference = references().find((candidate) => sameButDesign(candidate, prepared));
      return reference ? keptView(reference) : templates.view(prepared);
    },
    buildAhead() {
      ahead = true;
      build();
    },
  };
}

/** Whether `prepared` is `reference` with a design put on it (a copy: `{ ...reference, design }`). */
function sameButDesign(reference: PreparedInvoice, prepared: PreparedInvoice): boolean {
  if (reference === prepared) return true;
  if (reference.invoice !== prepared.invoice) return false;
  const keys = new Set([...Object.keys(reference), ...Object.keys(prepared)]);
  keys.delete('design');
  for (const key of keys) {
    if (reference[key as keyof PreparedInvoice] !== prepared[key as keyof PreparedInvoice]) return false;
  }
  return true;
}
