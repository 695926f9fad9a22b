import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { pageAreaPx, whileLaidOutAsPrinted } from './designLayout.js';
import { paperOf, type PaperSetting } from './paper.js';
import type { PooledPage } from './pooledPage.js';
import { layOutHtml } from './printPage.js';
import { unseenFacts, type UnseenFact } from './printedFacts.js';
import type { InvoiceTemplates } from './templates.js';
import type { InvoiceView } from './invoiceView.js';

/**
 * The content contract's look at a design (src/templates/contract/seenContract.ts): each invoice,
 * carrying the design, is filled and laid out as it prints on one render page, and the facts it
 * does not show are read from the page (printedFacts.ts), nothing printed. One page for all of
 * them, one after the other: the reference invoices cost one render slot.
 */
export async function designUnseenFacts(
  templates: InvoiceTemplates,
  pooled: PooledPage,
  invoices: readonly PreparedInvoice[],
  paperSetting: PaperSetting,
  /** The invoices' views: the reference invoices' are kept (referenceViews.ts). */
  viewOf: (prepared: PreparedInvoice) => InvoiceView = templates.view,
): Promise<UnseenFact[][]> {
  const { session } = pooled.printable;
  const found: UnseenFact[][] = [];
  for (const prepared of invoices) {
    const design = prepared.design;
    if (!design) throw new Error('designUnseenFacts checks invoices that carry a design');
    const view = viewOf(prepared);
    const paper = paperOf(prepared, paperSetting);
    await layOutHtml(pooled.printable, templates.designPage(view, design, true));
    found.push(
      await whileLaidOutAsPrinted(session, paper, () =>
        unseenFacts(session, view, pageAreaPx(paper).width, { hitTest: true }),
      ),
    );
  }
  return found;
}
