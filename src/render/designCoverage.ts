import { collapsed, factsOf } from './contractFacts.js';
import type { FillTrace } from './fillTrace.js';
import type { InvoiceView } from './invoiceView.js';
import type { PaperFormat } from './paper.js';

/**
 * What the content contract verified of a stored design, and whether one invoice stays inside it
 * (docs/templates.md, "Checked again when printing"). At upload every reference invoice's page was
 * laid out and every fact checked visible (factsOnPage.ts). How a design shows a fact can depend on
 * the invoice only through what its fill produced: the blocks it took (fillTrace.ts), the markup
 * (tags with their attributes: classes, `lang`, anything a field put there) and the style sheets
 * (theme, accent, labels), how long the texts are, and the paper. An invoice whose fill took only
 * branches, iteration counts, tags and style sheets some reference invoice's fill had, whose facts
 * are no longer than the references' of the same kind, on a paper they printed on, is *covered*:
 * its print needs only the facts' presence in the page's text (textOnPage.ts, no layout). Anything
 * else is checked in full, as at upload (without hit testing).
 */
export interface FilledDesign {
  html: string;
  view: InvoiceView;
  trace: FillTrace;
  paper: PaperFormat;
}

export interface DesignCoverage {
  branches: Set<string>;
  iterations: Map<string, number>;
  markup: Set<string>;
  /** The longest text of each kind of fact (line_items[].description, totals.total, …). */
  lengths: Map<string, number>;
  papers: Set<PaperFormat>;
}

/** What the reference invoices' fills of a design covered. */
export function coverageOf(references: readonly FilledDesign[]): DesignCoverage {
  const coverage: DesignCoverage = {
    branches: new Set(),
    iterations: new Map(),
    markup: new Set(),
    lengths: new Map(),
    papers: new Set(),
  };
  for (const filled of references) {
    filled.trace.branches.forEach((branch) => coverage.branches.add(branch));
    for (const [place, count] of filled.trace.iterations)
      coverage.iterations.set(place, Math.max(count, coverage.iterations.get(place) ?? 0));
    markupOf(filled.html).forEach((piece) => coverage.markup.add(piece));
    for (const [kind, length] of factLengths(filled.view))
      coverage.lengths.set(kind, Math.max(length, coverage.lengths.get(kind) ?? 0));
    coverage.papers.add(filled.paper);
  }
  return coverage;
}

/** Why this fill is not covered (the first thing found, for logs and tests), or undefined when it is. */
export function uncovered(coverage: DesignCoverage, filled: FilledDesign): string | undefined {
  if (!coverage.papers.has(filled.paper)) return `paper ${filled.paper}`;
  for (const branch of filled.trace.branches) if (!coverage.branches.has(branch)) return `block ${branch}`;
  for (const [place, count] of filled.trace.iterations)
    if (count > (coverage.iterations.get(place) ?? 0)) return `${count} iterations of ${place}`;
  for (const [kind, length] of factLengths(filled.view))
    if (length > (coverage.lengths.get(kind) ?? -1)) return `${kind} of ${length} characters`;
  for (const piece of markupOf(filled.html)) if (!coverage.markup.has(piece)) return `markup ${piece.slice(0, 80)}`;
  return undefined;
}

/** Field names without their indexes: line_items[57].amount → line_items[].amount. */
const kindOf = (field: string) => field.replace(/\[\d+\]/g, '[]');

function factLengths(view: InvoiceView): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const fact of factsOf(view)) {
    if (fact.text === undefined) continue;
    const kind = kindOf(fact.field);
    lengths.set(kind, Math.max(collapsed(fact.text).length, lengths.get(kind) ?? 0));
  }
  return lengths;
}

const STYLE_SHEET = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
const START_TAG = /<[a-zA-Z][^>]*>/g;
/** A QR code's modules (paymentQrSvg.ts): different on every invoice, and checked as a drawing. */
const QR_PATH = /^(<path\b[^>]*?\sd=")[^"]*"/;
/** A selector on a `d` attribute: then the modules are markup like any other. */
const D_SELECTOR = /\[\s*d\s*[\]~|^$*=]/i;

/** The page's style sheets and distinct start tags (a QR code's path data left out, unless a selector reads it). */
function markupOf(html: string): Set<string> {
  const pieces = new Set<string>();
  let css = '';
  for (const [, sheet] of html.matchAll(STYLE_SHEET)) {
    pieces.add(`<style>${sheet}`);
    css += sheet;
  }
  const qrNeutral = !D_SELECTOR.test(css);
  for (const [tag] of html.matchAll(START_TAG)) pieces.add(qrNeutral ? tag.replace(QR_PATH, '$1"') : tag);
  return pieces;
}
