import { validationFailed } from '../errors.js';
import { checkTotals } from './checkTotals.js';
import { envelopeIssues } from './envelopes.js';
import type { StoredFont } from '../fonts/fontFace.js';
import type { Theme, ThemeFontField } from './designFields.js';
import type { PackageFonts, TemplatePackage } from './templatePackage.js';
import { parseOrReject } from './issues.js';
import { invoiceLocale, type InvoiceLocale } from './locales.js';
import { decodeLogo, type Logo } from './logo.js';
import { choosePaymentQr, type PaymentQr } from './paymentQr/index.js';
import { checkInvoiceRules } from './rules.js';
import { InvoiceSchema, type Invoice } from './schema.js';
import { computeTotals, type Totals } from './totals.js';
import type { Decimal } from './decimal.js';

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
  design?:
    | {
        id: string;
        package: TemplatePackage;
        fonts?: PackageFonts | undefined;
        /** Read from the store: it passed the content contract when it was put (print-time check, src/render/designCheck.ts). */
        stored?: boolean;
      }
    | undefined;
  /**
   * A code a format's printing hook puts at the top of page 1, before any payment code (Spain's
   * "QR tributario": src/einvoice/printing.ts asks the formats' hooks): the text it encodes, the
   * caption above it and the legend below it (null: none), as the format words them.
   */
  pageTopCode?: PageTopCode | undefined;
  /**
   * Surcharges a format's printing hook adds on top of VAT (Spain's equivalence surcharge), each
   * printed as a row of its own; already counted in totals.total and totals.balanceDue (withSurcharges).
   */
  surcharges?: readonly Surcharge[] | undefined;
}

/** A code printed at the top of page 1 (PreparedInvoice.pageTopCode). */
export interface PageTopCode {
  text: string;
  caption: string;
  legend: string | null;
  /** The language of the caption and legend (AEAT's: es). */
  lang: string;
}

/** A surcharge on a VAT group's taxable amount, in minor units, with the request field that asks for it. */
export interface Surcharge {
  rate: Decimal;
  taxable: bigint;
  amount: bigint;
  path: string;
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
  const qr = paymentQrOf(invoice, totals);
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

/** The payment QR code of an invoice with its totals: it pays the balance due. */
function paymentQrOf(invoice: Invoice, totals: Totals) {
  return choosePaymentQr({
    currency: invoice.currency,
    digits: totals.digits,
    balanceDueMinor: totals.balanceDue,
    invoiceNumber: invoice.invoice_number,
    payment: invoice.payment,
    seller: invoice.seller,
    buyer: invoice.buyer,
  });
}

/**
 * The invoice with surcharges on top of its VAT (a format's printing hook, Spain's equivalence
 * surcharge): the total and the balance due include them, and the payment QR code pays that
 * balance. A total beyond what the service answers exactly is a 400, as in prepareInvoice.
 */
export function withSurcharges(prepared: PreparedInvoice, surcharges: readonly Surcharge[]): PreparedInvoice {
  if (surcharges.length === 0) return prepared;
  const added = surcharges.reduce((sum, surcharge) => sum + surcharge.amount, 0n);
  const totals = {
    ...prepared.totals,
    total: prepared.totals.total + added,
    balanceDue: prepared.totals.balanceDue + added,
  };
  const error = checkTotals(totals);
  if (error) throw error;
  const qr = paymentQrOf(prepared.invoice, totals);
  if (qr.kind === 'invalid') throw validationFailed(qr.issues);
  return { ...prepared, totals, surcharges, paymentQr: qr.kind === 'qr' ? qr.qr : undefined };
}
