import { validationFailed } from '../errors.js';
import { checkTotals } from './checkTotals.js';
import { envelopeIssues } from './envelopes.js';
import type { StoredFont } from '../fonts/fontFace.js';
import type { Theme, ThemeFontField } from './designFields.js';
import type { TemplatePackage } from './templatePackage.js';
import { parseOrReject } from './issues.js';
import { invoiceLocale, type InvoiceLocale } from './locales.js';
import { decodeLogo, type Logo } from './logo.js';
import { choosePaymentQr, type PaymentQr } from './paymentQr/index.js';
import { checkInvoiceRules } from './rules.js';
import { InvoiceSchema, type Invoice } from './schema.js';
import { computeTotals, type Totals } from './totals.js';

export interface PreparedInvoice {
  invoice: Invoice;
  totals: Totals;
  locale: InvoiceLocale;
  /** The decoded, checked logo (decoded once here, never written anywhere). */
  logo: Logo | undefined;
  /** The payment QR code the invoice prints (payment.qr auto), built from the balance due. */
  paymentQr: PaymentQr | undefined;
  /**
   * The theme the invoice prints with: the inline one, or, for a reference ("sha256:…"), the
   * stored one put here by resolveThemeReference (src/themes/storedThemes.ts) before any payment.
   */
  theme?: Theme | undefined;
  /** The stored fonts the theme names by id, by theme field; put here by resolveStoredLook before any payment. */
  fonts?: Partial<Record<ThemeFontField, StoredFont>> | undefined;
  /**
   * A customer's stored design, for "design": "sha256:…": the package as stored and the stored
   * fonts its `fonts` names (by family), put here by resolveDesignReference
   * (src/templates/storedTemplates.ts) before any payment.
   */
  design?: { id: string; package: TemplatePackage; fonts?: Record<string, StoredFont> | undefined } | undefined;
  /**
   * Spain's "QR tributario" (src/einvoice/formats/verifactu/invoicePdf.ts): AEAT's verification URL
   * of the invoice's billing record, printed at the top of page 1, and whether it was issued in
   * VERI*FACTU mode (then "VERI*FACTU" is printed below it).
   */
  verifactuQr?: { url: string; verifactuMode: boolean } | undefined;
}

/**
 * Everything the paid route and validate do before any payment or rendering: schema check (every
 * issue at once), then the rules across fields and the totals. Throws a 400 AppError.
 */
export function prepareInvoice(body: unknown): PreparedInvoice {
  const invoice = parseOrReject(InvoiceSchema, body);
  const totals = computeTotals(invoice);
  const decoded = invoice.logo === undefined ? undefined : decodeLogo(invoice.logo);
  // A payment QR code that cannot be made exactly is a 400, never a code with a wrong payload.
  const qr = choosePaymentQr({
    currency: invoice.currency,
    digits: totals.digits,
    balanceDueMinor: totals.balanceDue,
    invoiceNumber: invoice.invoice_number,
    payment: invoice.payment,
    seller: invoice.seller,
    buyer: invoice.buyer,
  });
  const issues = [
    ...checkInvoiceRules(invoice, totals),
    ...(decoded && 'issue' in decoded ? [decoded.issue] : []),
    ...(qr.kind === 'invalid' ? qr.issues : []),
    ...(invoice.envelope === undefined
      ? []
      : envelopeIssues(
          invoice.envelope,
          invoice,
          invoiceLocale(invoice.locale, invoice.currency),
          qr.kind === 'qr' && qr.qr.scheme === 'swiss',
        )),
  ];
  if (issues.length > 0) throw validationFailed(issues);
  const error = checkTotals(totals);
  if (error) throw error;
  return {
    invoice,
    totals,
    locale: invoiceLocale(invoice.locale, invoice.currency),
    logo: decoded && 'logo' in decoded ? decoded.logo : undefined,
    paymentQr: qr.kind === 'qr' ? qr.qr : undefined,
    ...(typeof invoice.theme === 'object' ? { theme: invoice.theme } : {}),
  };
}
