import Handlebars from 'handlebars';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { TaxQrView } from './invoiceView.js';
import { paymentQrSvg } from './paymentQrSvg.js';

/**
 * The code a format's printing hook puts at the top of page 1 (PreparedInvoice.pageTopCode), sized
 * for Spain's "QR tributario" (AEAT, Especificaciones del código QR v0.5.0 §2-3): ISO/IEC 18004 at
 * level M (paymentQrSvg), the symbol 32 mm wide (30 to 40 mm asked) inside a quiet zone of 4
 * modules (about 3 mm; at least 2 mm asked), the format's caption above it and its legend below it,
 * printed as the format words them (AEAT's are Spanish whatever the invoice's language).
 */
const SYMBOL_MM = 32;
const QUIET_ZONE_MODULES = 4;

export function taxQrView(code: PreparedInvoice['pageTopCode']): TaxQrView | null {
  if (!code) return null;
  // Encoded once (the mask choice is most of a code's cost: about 1.3 ms of a 120-character URL).
  const { svg } = paymentQrSvg(code.text, { quietZoneModules: QUIET_ZONE_MODULES, symbolMm: SYMBOL_MM });
  return {
    caption: code.caption,
    // SafeString: the SVG is geometry only, drawn from the URL's bits (paymentQrSvg.ts).
    svg: new Handlebars.SafeString(svg.replace('class="payment-qr"', 'class="tax-qr__code"')),
    legend: code.legend,
    lang: code.lang,
  };
}
