import type { FillTrace } from './fillTrace.js';
import type { InvoiceView } from './invoiceView.js';
import type { PaperFormat } from './paper.js';
import type { AskedFacts } from './textOnPage.js';

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
  /** The view's facts (contractFacts.ts), as the page's text is searched for them. */
  asked: AskedFacts;
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
    eachMarkupPiece(filled.html, (piece) => {
      if (!coverage.markup.has(piece)) coverage.markup.add(detached(piece));
      return true;
    });
    for (const [kind, length] of factLengths(filled.asked))
      coverage.lengths.set(kind, Math.max(length, coverage.lengths.get(kind) ?? 0));
    coverage.papers.add(filled.paper);
  }
  return coverage;
}

/**
 * A copy of a piece that holds only its own characters: a piece read from a page is a slice that
 * keeps the whole page alive, so a coverage kept its 12 reference pages (measured 2026-12-06, the
 * house style: a design's coverage and caches held 994 KB, 577 KB with copies; 64 coverages are
 * kept). JSON's round trip copies every string exactly, lone surrogates included.
 */
const detached = (piece: string): string => JSON.parse(JSON.stringify(piece)) as string;

/** Why this fill is not covered (the first thing found, for logs and tests), or undefined when it is. */
export function uncovered(coverage: DesignCoverage, filled: FilledDesign): string | undefined {
  if (!coverage.papers.has(filled.paper)) return `paper ${filled.paper}`;
  for (const branch of filled.trace.branches) if (!coverage.branches.has(branch)) return `block ${branch}`;
  for (const [place, count] of filled.trace.iterations)
    if (count > (coverage.iterations.get(place) ?? 0)) return `${count} iterations of ${place}`;
  const { facts, texts } = filled.asked;
  for (const [index, text] of texts) {
    const kind = kindOf(facts[index]!.field);
    if (text.length > (coverage.lengths.get(kind) ?? -1)) return `${kind} of ${text.length} characters`;
  }
  let unseen: string | undefined;
  eachMarkupPiece(filled.html, (piece) => coverage.markup.has(piece) || ((unseen = piece), false));
  return unseen === undefined ? undefined : `markup ${unseen.slice(0, 80)}`;
}

/**
 * Field names without their indexes: line_items[57].amount → line_items[].amount. Kept by field:
 * the fields are the view's (a few per line, 200 lines at most), and each print asks for all.
 */
const kinds = new Map<string, string>();
function kindOf(field: string): string {
  let kind = kinds.get(field);
  if (kind === undefined) {
    if (kinds.size >= 10_000) kinds.clear();
    kinds.set(field, (kind = field.replace(/\[\d+\]/g, '[]')));
  }
  return kind;
}

function factLengths({ facts, texts }: AskedFacts): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const [index, text] of texts) {
    const kind = kindOf(facts[index]!.field);
    lengths.set(kind, Math.max(text.length, lengths.get(kind) ?? 0));
  }
  return lengths;
}

const STYLE_SHEET = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
/** A QR code's modules (paymentQrSvg.ts): different on every invoice, and checked as a drawing. */
const QR_PATH = /^(<path\b[^>]*?\sd=")[^"]*"/;
/** A selector on a `d` attribute: then the modules are markup like any other. */
const D_SELECTOR = /\[\s*d\s*[\]~|^$*=]/i;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * The page's style sheets and start tags, in order (a QR code's path data left out, unless a
 * selector reads it), each given to `visit` until it answers false. A start tag is what the
 * pattern <[a-zA-Z][^>]*> finds, read with indexOf: matching it piece by piece cost ≈ 1 ms of a
 * 200-line print (measured 2026-12-06).
 */
function eachMarkupPiece(html: string, visit: (piece: string) => boolean): void {
  let css = '';
  for (const [, sheet] of html.matchAll(STYLE_SHEET)) {
    if (!visit(`<style>${sheet}`)) return;
    css += sheet;
  }
  const qrNeutral = !D_SELECTOR.test(css);
  for (let at = html.indexOf('<'); at !== -1;) {
    if (!isLetter(html.charCodeAt(at + 1))) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const end = html.indexOf('>', at + 2);
    if (end === -1) return;
    const tag = html.slice(at, end + 1);
    if (!visit(qrNeutral && tag.startsWith('<path') ? tag.replace(QR_PATH, '$1"') : tag)) return;
    at = html.indexOf('<', end + 1);
  }
}
