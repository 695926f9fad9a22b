import type { CDPSession } from 'puppeteer-core';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { factsOf } from './contractFacts.js';
import { coverageOf, uncovered, type DesignCoverage, type FilledDesign } from './designCoverage.js';
import { pageAreaPx, whileLaidOutAsPrinted } from './designLayout.js';
import { eachTurn } from './eachTurn.js';
import { traceFill } from './fillTrace.js';
import type { InvoiceView } from './invoiceView.js';
import { paperOf, type PaperFormat, type PaperSetting } from './paper.js';
import { checkPrintedFacts, checkPrintedText } from './printedFacts.js';
import { askedFacts, type AskedFacts } from './textOnPage.js';
import type { InvoiceTemplates } from './templates.js';

type Design = NonNullable<PreparedInvoice['design']>;

export interface CheckedDesignPage {
  view: InvoiceView;
  /** The filled page, as the renderer prints it. */
  page: string;
  /** The print-time check, run once the page is written and before it prints. */
  beforePrint: (session: CDPSession) => Promise<void>;
  /** Why the full check runs (designCoverage.ts `uncovered`), or undefined when the text's does; decided when first read. */
  readonly fullCheck: string | undefined;
}

/** Stored designs whose coverage is kept: a coverage costs the 12 reference fills (≈ 20–60 ms in all). */
const COVERAGES_KEPT = 64;

/**
 * The page of a customer's design and the check its print runs (docs/templates.md, "Checked again
 * when printing"): for a stored design (it passed the content contract when it was put) and an
 * invoice the contract's reference invoices cover (designCoverage.ts), the facts' presence in the
 * page's text; otherwise every fact visible on the page laid out as printed, as at upload without
 * hit testing. The coverage of a design is its 12 reference fills, made once per id (after its
 * first print, which is checked in full) and kept.
 */
export function designChecker(
  templates: InvoiceTemplates,
  paperSetting: PaperSetting,
  /** The content contract's reference invoices (src/templates/contract/referenceInvoices.ts); none: every print checked in full. */
  references: () => readonly PreparedInvoice[] = () => [],
  log: (event: object) => void = () => undefined,
  /** The reference invoices' views, kept (referenceViews.ts); a print's own invoice is viewed anew. */
  referenceView: (prepared: PreparedInvoice) => InvoiceView = templates.view,
) {
  const kept = new Map<string, DesignCoverage | null>();
  const pending = new Set<string>();
  templates.onReload(() => kept.clear());

  const fill = (prepared: PreparedInvoice, design: Design, paper: PaperFormat): FilledDesign => {
    const view = referenceView(prepared);
    const { result: html, trace } = traceFill(() => templates.designPage(view, design, true));
    return { html, view, asked: askedFacts(factsOf(view)), trace, paper };
  };
  // One reference fill per turn of the event loop (the 200-line one ≈ 10 ms): 12 at once would
  // stall the loop for every request. A reference the design cannot fill: it never passed this contract.
  const makeCoverage = (design: Design) =>
    eachTurn(
      references(),
      (prepared) => fill({ ...prepared, design }, design, paperOf(prepared, paperSetting)),
      (fills) => keep(design.id, fills.length > 0 ? coverageOf(fills) : null),
      { failed: () => keep(design.id, null) },
    );
  const keep = (id: string, coverage: DesignCoverage | null) => {
    pending.delete(id);
    kept.set(id, coverage);
    if (kept.size > COVERAGES_KEPT) kept.delete(kept.keys().next().value!);
  };
  // A design's first print is checked in full; its coverage is made after it, off that print's path.
  const coverage = (design: Design): DesignCoverage | null | undefined => {
    const found = kept.get(design.id);
    if (found !== undefined) {
      kept.delete(design.id);
      kept.set(design.id, found);
    } else if (!pending.has(design.id)) {
      pending.add(design.id);
      makeCoverage(design);
    }
    return found;
  };

  return {
    /** `textOnly`: whether this print may use the text's check when covered (not a preview or specimen). */
    page(prepared: PreparedInvoice, design: Design, paper: PaperFormat, textOnly: boolean): CheckedDesignPage {
      const view = templates.view(prepared);
      const { result: html, trace } = traceFill(() => templates.designPage(view, design, true));
      const known = textOnly && design.stored === true ? coverage(design) : undefined;
      // Decided when first asked: the print asks once the page's document is on its way to
      // Chromium (printPage.ts), so that the decision runs while Chromium parses the document.
      let decided: { fullCheck: string | undefined; asked: AskedFacts } | undefined;
      const decide = () => {
        if (decided) return decided;
        const asked = askedFacts(factsOf(view));
        const fullCheck = known
          ? uncovered(known, { html, view, asked, trace, paper })
          : known === null
            ? 'the reference invoices cannot be filled'
            : 'no coverage (not a stored design, a preview or specimen, or its first print)';
        log({
          event: 'design_check',
          design: design.id,
          check: fullCheck === undefined ? 'text' : 'full',
          why: fullCheck,
        });
        return (decided = { fullCheck, asked });
      };
      return {
        view,
        page: html,
        get fullCheck() {
          return decide().fullCheck;
        },
        beforePrint: (session) => {
          const { fullCheck, asked } = decide();
          return fullCheck === undefined
            ? checkPrintedText(session, asked)
            : whileLaidOutAsPrinted(session, paper, () => checkPrintedFacts(session, view, pageAreaPx(paper).width));
        },
      };
    },
  };
}
