import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Party } from '../invoice/schema.js';
import { buildTotalsReport, type TotalsReport } from '../invoice/totalsReport.js';
import { textLanguage } from './textLanguage.js';

/**
 * Everything the invoice template prints, already as display strings. Amounts come verbatim from
 * buildTotalsReport (the same strings the validate route answers), so the template only places
 * text and never computes. Every field is present (null when absent) because the templates are
 * compiled in strict mode, where a misspelt field name is an error rather than a blank.
 */
export interface InvoiceView {
  /** The document <title>; Chromium copies it into the PDF Title. */
  title: string;
  invoiceNumber: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  seller: PartyView;
  buyer: PartyView;
  /** All lines but the last few, which travel with the totals so those never start a page alone. */
  lines: LineView[];
  tailLines: LineView[];
  totals: TotalsView;
  notes: TextView | null;
  paymentInstructions: TextView | null;
}

export interface PartyView {
  /** `lang` of the block of user text: "" (unknown) unless CJK script tells us more. */
  lang: string;
  name: string;
  address: string | null;
  email: string | null;
  phone: string | null;
  taxId: string | null;
}

export interface LineView {
  number: number;
  lang: string;
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
}

export interface TotalsView {
  subtotal: string;
  /** Null when there is no discount: a "−$0.00" line only adds noise. */
  discount: string | null;
  /** Null with no discount, where it would repeat the subtotal. */
  taxable: string | null;
  taxRate: string;
  tax: string;
  total: string;
}

export interface TextView {
  lang: string;
  text: string;
}

/** How many of the last lines are kept on the page of the totals. */
export const LINES_KEPT_WITH_TOTALS = 3;

// Day month-name year reads the same to US and European customers (02/11 does not).
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function formatDate(isoDate: string): string {
  return DATE_FORMAT.format(new Date(`${isoDate}T00:00:00Z`));
}

export function buildInvoiceView(prepared: PreparedInvoice, report: TotalsReport = buildTotalsReport(prepared)): InvoiceView {
  const { invoice } = prepared;
  const locale = report.currency.locale;
  const lines = report.lines.map(
    (line, index): LineView => ({
      number: index + 1,
      lang: textLanguage(line.description, locale),
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unit_price.formatted,
      amount: line.amount.formatted,
    }),
  );
  const split = Math.max(0, lines.length - LINES_KEPT_WITH_TOTALS);
  const hasDiscount = report.discount.minor !== 0;
  return {
    title: `Invoice ${invoice.invoice_number}`,
    invoiceNumber: invoice.invoice_number,
    issueDate: formatDate(report.issue_date),
    dueDate: report.due_date === null ? null : formatDate(report.due_date),
    currency: report.currency.code,
    seller: partyView(invoice.seller, locale),
    buyer: partyView(invoice.buyer, locale),
    lines: lines.slice(0, split),
    tailLines: lines.slice(split),
    totals: {
      subtotal: report.subtotal.formatted,
      discount: hasDiscount ? report.discount.formatted : null,
      taxable: hasDiscount ? report.taxable.formatted : null,
      taxRate: report.tax_rate,
      tax: report.tax.formatted,
      total: report.total.formatted,
    },
    notes: textView(invoice.notes, locale),
    paymentInstructions: textView(invoice.payment_instructions, locale),
  };
}

function partyView(party: Party, locale: string): PartyView {
  const allText = [party.name, party.address, party.phone, party.tax_id].filter(Boolean).join(' ');
  return {
    lang: textLanguage(allText, locale),
    name: party.name,
    address: nonBlank(party.address),
    email: nonBlank(party.email),
    phone: nonBlank(party.phone),
    taxId: nonBlank(party.tax_id),
  };
}

function textView(text: string | undefined, locale: string): TextView | null {
  const value = nonBlank(text);
  return value === null ? null : { lang: textLanguage(value, locale), text: value };
}

/** Optional text that is empty or only white space prints nothing (and no empty label). */
function nonBlank(text: string | undefined): string | null {
  return text === undefined || text.trim() === '' ? null : text;
}
