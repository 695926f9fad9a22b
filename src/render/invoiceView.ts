import type { EnvelopeView } from './envelopeView.js';
import type { DataBlockView } from './dataBlockView.js';
import type Handlebars from 'handlebars';
import type { VerificationCode } from '../invoice/inboundInvoice.js';
import type { LabelCatalog } from '../invoice/labelKeys.js';
import type { LookView } from './lookView.js';
import type { PartyView } from './partyView.js';
import type { SwissQrBillView } from './swissQrBillView.js';

/*
 * The shape of the page the invoice template prints, for our own invoices (viewModel.ts builds it)
 * and for inbound e-invoices (inboundView.ts and the sections under inbound/). Types only, in a file
 * of their own, so that the builders of both pages import the shape without importing each other.
 */

/**
 * Everything the invoice template prints, already as display strings. Amounts come verbatim from
 * buildTotalsReport (the same strings the validate route answers), so the template only places
 * text and never computes. Every field is present (null when absent) because the templates are
 * compiled in strict mode, where a misspelt field name is an error rather than a blank.
 */
export interface InvoiceView extends LookView {
  /** The document <title>; Chromium copies it into the PDF Title. */
  title: string;
  /** The invoice language (`lang` of the page) and "rtl" for Arabic and Hebrew, else null. */
  lang: string;
  dir: 'rtl' | null;
  /** The words of the page: the language's catalog with the request's `labels` over it. */
  labels: LabelCatalog;
  /** "Invoice" or "Credit note" in the invoice language, or the law's "Tax Invoice" (taxInvoiceMarks.ts). */
  documentTitle: string;
  /** "en" when documentTitle is the law's English wording on a page in another language. */
  documentTitleLang: string | null;
  /** The invoice language's own title under the legal one, when the page is not in English. */
  documentSubtitle: string | null;
  invoiceNumber: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  seller: PartyView;
  buyer: PartyView;
  shipTo: PartyView | null;
  /** Purchase order, buyer reference, preceding invoice and custom fields, in the details panel. */
  details: DetailView[];
  logo: { src: string; width: number; height: number } | null;
  /** The request's accent colour, normalised to #rrggbb (lower case), or null for the design's own. */
  accent: string | null;
  /** A VAT rate column in the line table: only when the lines have more than one rate. */
  rateColumn: boolean;
  /** Column span of the cell left of the totals' labels (it holds the VAT breakdown). */
  totalsPad: number;
  /** How many totals rows that cell spans (partials/totals.hbs prints one row per entry). */
  totalsRows: number;
  /** All lines but the last few, which travel with the totals so those never start a page alone. */
  lines: LineView[];
  tailLines: LineView[];
  totals: TotalsView;
  /** The VAT breakdown table, printed when there is more than one VAT group. */
  vatBreakdown: VatRowView[] | null;
  /** Why no VAT is charged on some lines (E, AE, K, G, O). */
  exemptions: TextView[];
  payment: PaymentView | null;
  /** A window envelope's address block and fold marks on page 1 (templates/partials/envelope.hbs). */
  envelope: EnvelopeView | null;
  /** A format's code at the top of page 1 (Spain's "QR tributario", templates/partials/tax-qr.hbs), before any payment QR. */
  taxQr: TaxQrView | null;
  /** The Swiss QR-bill (payment part and receipt) on a page of its own after the invoice. */
  swissQrBill: SwissQrBillView | null;
  notes: TextView | null;
  paymentInstructions: TextView | null;
  /** The sections of an inbound e-invoice's page (inboundView.ts); null for our own invoices. */
  inbound: InboundView | null;
}

export interface DetailView {
  label: string;
  value: string;
  lang: string;
}

export interface LineView {
  number: number;
  lang: string;
  description: string;
  itemCode: string | null;
  quantity: string;
  unitPrice: string;
  rate: string;
  amount: string;
}

export interface TotalsView {
  subtotal: string;
  /** Null when there is no discount: a "−$0.00" line only adds noise. */
  discount: string | null;
  /** Null with no discount, where it would repeat the subtotal. */
  taxable: string | null;
  /** One row per VAT group: "Tax (7.5%)" and its amount. */
  taxes: { label: string; amount: string }[];
  totalLabel: string;
  total: string;
  /** Both null unless the request gives amount_paid. */
  amountPaid: string | null;
  /** rounding_amount (BT-114), signed. */
  rounding?: string | null;
  balanceDue: string | null;
}

interface VatRowView {
  category: string;
  rate: string;
  taxable: string;
  tax: string;
}

export interface PaymentView {
  accountName: string | null;
  iban: string | null;
  bic: string | null;
  reference: string | null;
  /** The payment QR code beside the bank details (EPC, PIX, UPI, USDC), and what it pays. */
  qr: { svg: Handlebars.SafeString; scheme: string; lines: string[] } | null;
}

export interface TextView {
  lang: string;
  text: string;
}

export interface InboundView {
  /** "Visualisation of an electronic invoice…" and the syntax/specification line. */
  banner: string;
  specification: string;
  notices: TextView[];
  differences: { label: string; document: string; recomputed: string }[];
  references: { label: string; value: string; lang: string }[];
  lineDetails: { line: string; facts: string[]; lang: string }[];
  allowances: { label: string; amount: string; lang: string }[];
  paymentMeans: { label: string; values: string[] }[];
  parties: { heading: string; party: PartyView }[];
  attachments: { id: string; text: string; lang: string }[];
  otherValues: { label: string; value: string; lang: string }[];
  /** Data the format attaches in its own structure (FA(3)'s Zalacznik), as its tables. */
  dataBlocks: DataBlockView[];
  /** The format's verification code: its QR code, caption and name (FA(3): KOD I, the KSeF number or OFFLINE). */
  verificationCode: VerificationCodeView | null;
}

/** A format's code at the top of page 1 (AEAT's QR): the caption above it, the code (geometry only), the legend below it, and their language. */
export interface TaxQrView {
  caption: string;
  svg: Handlebars.SafeString;
  legend: string | null;
  lang: string;
}

/** An inbound e-invoice's verification code as printed: its QR code, link, caption and name. */

export interface VerificationCodeView {
  svg: Handlebars.SafeString;
  link: string;
  caption: string;
  name: VerificationCode['name'];
}
