import { ENVELOPES, envelopeAddressLines, envelopeReturnLine, type EnvelopeName } from '../invoice/envelopes.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { PAGE_MARGINS } from './printOptions.js';

/** What templates/partials/envelope.hbs prints: the return line, the address lines, whether DIN's hole mark shows. */
export interface EnvelopeView {
  name: EnvelopeName;
  returnLine: string;
  lines: string[];
  holeMark: boolean;
}

export function envelopeView(prepared: PreparedInvoice): EnvelopeView | null {
  const { invoice, locale } = prepared;
  if (invoice.envelope === undefined) return null;
  return {
    name: invoice.envelope,
    returnLine: envelopeReturnLine(invoice.seller),
    lines: envelopeAddressLines(invoice.buyer, invoice.seller, locale),
    holeMark: ENVELOPES[invoice.envelope].hole !== null,
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
    ['--envelope-fold-1', mm(layout.folds[0]!)],
    ['--envelope-fold-2', mm(layout.folds[1]!)],
    ['--envelope-hole', mm(layout.hole ?? 0)],
  ];
  return `\n/* The ${view.name} window envelope (src/render/envelopeView.ts). */\n:root { ${properties
    .map(([name, value]) => `${name}: ${value};`)
    .join(' ')} }\n`;
}
