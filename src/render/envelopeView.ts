import {
  ENVELOPES,
  envelopeAddressLines,
  envelopeReturnLine,
  type EnvelopeLayout,
  type EnvelopeName,
} from '../invoice/envelopes.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { PAGE_MARGINS, PAPER_MM } from './printOptions.js';

/** What templates/partials/envelope.hbs prints: the return line and the address lines. */
export interface EnvelopeView {
  name: EnvelopeName;
  returnLine: string;
  lines: string[];
}

export function envelopeView(prepared: PreparedInvoice): EnvelopeView | null {
  const { invoice, locale } = prepared;
  if (invoice.envelope === undefined) return null;
  return {
    name: invoice.envelope,
    returnLine: envelopeReturnLine(invoice.seller),
    lines: envelopeAddressLines(invoice.buyer, invoice.seller, locale),
  };
}

/**
 * The envelope's geometry as CSS custom properties (styles/envelope.css places the partial with
 * them): numbers from ENVELOPES and PAGE_MARGINS only, so one table says where a window is.
 */
export function envelopeCss(view: EnvelopeView | null): string {
  if (view === null) return '';
  const layout = ENVELOPES[view.name];
  const mm = (value: number) => `${Number(value.toFixed(2))}mm`;
  const properties: [string, string][] = [
    ['--envelope-page-top', PAGE_MARGINS.top],
    ['--envelope-page-left', PAGE_MARGINS.left],
    ['--envelope-left', mm(layout.left)],
    ['--envelope-top', mm(layout.top)],
    ['--envelope-width', mm(layout.width)],
    ['--envelope-return-height', mm(layout.returnHeight)],
    ['--envelope-address-height', mm(layout.addressHeight)],
    ['--envelope-clearance', mm(layout.clearance)],
  ];
  return `\n/* The ${view.name} window envelope (src/render/envelopeView.ts). */\n:root { ${properties
    .map(([name, value]) => `${name}: ${value};`)
    .join(' ')} }\n${marksCss(layout)}\n`;
}

/** Where the marks start from the sheet's left edge, and their lengths (the hole mark is longer). */
const MARK_X = 4;
const FOLD_MARK_LENGTH = 5;
const HOLE_MARK_LENGTH = 8;

/**
 * The fold marks (and DIN 5008's hole mark) in page 1's left margin, near the sheet's edge, as the
 * standard puts them. Chromium clips page content that overflows into the margins, but it prints
 * @page margin boxes: the left-top box (the left margin beside the page area, whose top is the
 * top margin below the sheet's top) carries an SVG of the marks as its background, in
 * millimetres from the sheet's top-left corner and shifted up by the top margin. The SVG holds
 * numbers from ENVELOPES only; img-src data: is what the page's CSP allows (designPage.ts).
 */
function marksCss(layout: EnvelopeLayout): string {
  const pageTop = Number.parseFloat(PAGE_MARGINS.top);
  const pageLeft = Number.parseFloat(PAGE_MARGINS.left);
  const height = PAPER_MM[layout.paper].height;
  const line = (y: number, length: number) => `<line x1='${MARK_X}' x2='${MARK_X + length}' y1='${y}' y2='${y}'/>`;
  const lines = [
    ...layout.folds.map((fold) => line(fold, FOLD_MARK_LENGTH)),
    ...(layout.hole === null ? [] : [line(layout.hole, HOLE_MARK_LENGTH)]),
  ];
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='${pageLeft}mm' height='${height}mm' viewBox='0 0 ${pageLeft} ${height}'><g stroke='black' stroke-width='0.3'>${lines.join('')}</g></svg>`;
  return `@page :first { @left-top { content: ''; height: ${height - pageTop}mm; background: url("data:image/svg+xml,${encodeURIComponent(svg)}") no-repeat 0 -${pageTop}mm / ${pageLeft}mm ${height}mm; } }`;
}
