import Handlebars from 'handlebars';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { TaxQrView } from './invoiceView.js';
import { paymentQrSvg } from './paymentQrSvg.js';

/**
 * Spain's "QR tributario" as the page prints it (AEAT, Especificaciones del código QR v0.5.0 §2-3):
 * ISO/IEC 18004 at level M (paymentQrSvg), the symbol 32 mm wide (30 to 40 mm asked) inside a
 * quiet zone of 4 modules (about 3 mm; at least 2 mm asked), "QR tributario:" above it and, for an
 * invoice of a VERI*FACTU system, "VERI*FACTU" below it. The texts are AEAT's in Spanish whatever
 * the invoice's language.
 */
const SYMBOL_MM = 32;
const QUIET_ZONE_MODULES = 4;

export function taxQrView(qr: PreparedInvoice['verifactuQr']): TaxQrView | null {
  if (!qr) return null;
  const { modules } = paymentQrSvg(qr.url, { quietZoneModules: 0 });
  const side = (SYMBOL_MM * (modules + 2 * QUIET_ZONE_MODULES)) / modules;
  const { svg } = paymentQrSvg(qr.url, { quietZoneModules: QUIET_ZONE_MODULES, size: `${side.toFixed(2)}mm` });
  return {
    caption: 'QR tributario:',
    // SafeString: the SVG is geometry only, drawn from the URL's bits (paymentQrSvg.ts).
    svg: new Handlebars.SafeString(svg.replace('class="payment-qr"', 'class="tax-qr__code"')),
    legend: qr.verifactuMode ? 'VERI*FACTU' : null,
  };
}
