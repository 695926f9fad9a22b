import { DEFAULT_DESIGN } from '../invoice/designFields.js';
import type { InboundNote } from '../invoice/inboundNotes.js';
import type { InboundInvoice, TotalsComparison, VerificationCode } from '../invoice/inboundInvoice.js';
import type { LabelCatalogs } from './labelCatalogs.js';
import type { InboundView, InvoiceView } from './invoiceView.js';
import { LINES_KEPT_WITH_TOTALS, totalsRows } from './viewModel.js';
import { inboundAllowances } from './inbound/inboundAllowances.js';
import { inboundDataBlocks } from './inbound/inboundDataBlocks.js';
import { inboundBanner, verificationCodeView } from './inbound/inboundBanner.js';
import { inboundAttachments, inboundNotes, prepaidIsWithholding } from './inbound/inboundExtras.js';
import { furtherDetails } from './inbound/furtherDetails.js';
import { inboundLineDetails, inboundLines } from './inbound/inboundLines.js';
import { deliveryParty, inboundParty, otherParties } from './inbound/inboundParties.js';
import { inboundPayment, inboundPaymentMeans } from './inbound/inboundPayment.js';
import { inboundReferences } from './inbound/inboundReferences.js';
import { inboundTaxMarks } from './inbound/inboundTaxMarks.js';
import { inboundText } from './inbound/inboundText.js';
import { inboundDifferences, inboundTaxBreakdown, inboundTotals } from './inbound/inboundTotals.js';

/**
 * The page of an inbound e-invoice (POST /v1/e-invoice/render.pdf): the same template as our own
 * invoices, filled with the document's values as it states them (its line amounts and its own
 * totals, never recomputed ones), plus the inbound sections (templates/partials/inbound-*.hbs):
 * the visualisation notice, where its totals disagree with its lines, references, line details,
 * allowances and charges, attachments (listed, never opened) and every other value with its BT.
 * Each section is built in its own file under render/inbound/.
 */
export interface InboundRender {
  invoice: InboundInvoice;
  totals: TotalsComparison;
  /** The requested BCP 47 tag, or undefined for English. */
  locale: string | undefined;
  /** Notes on the file (an unknown specification identifier, a signature, its documents), printed from the catalog. */
  notes: InboundNote[];
  /** The verification code a format's printed copies carry (src/einvoice/formats/format.ts VerificationCodeHook). */
  verificationCode?: VerificationCode | undefined;
  /** The file's further documents (a FatturaPA's further bodies), each printed from a new page in the same language. */
  further?: Pick<InboundRender, 'invoice' | 'totals' | 'notes'>[];
}

const CREDIT_NOTE_TYPE_CODES = ['381', '396', '81', '83', '532'];

export function buildInboundView(render: InboundRender, catalogs: LabelCatalogs): InvoiceView {
  const { invoice: doc } = render;
  const fmt = inboundText(render.locale, doc.currency, catalogs);
  const { labels, locale } = fmt;
  const creditNote = doc.document === 'CreditNote' || CREDIT_NOTE_TYPE_CODES.includes(doc.typeCode);
  const { titles, seller, buyer } = inboundTaxMarks(
    doc,
    { seller: inboundParty(doc.seller, fmt), buyer: inboundParty(doc.buyer, fmt) },
    creditNote ? labels.credit_note : labels.invoice,
    creditNote,
    fmt,
  );
  const rateColumn = new Set(doc.lines.map((line) => `${line.category}|${line.rate}`)).size > 1;
  const lines = inboundLines(doc, fmt);
  const split = Math.max(0, lines.length - LINES_KEPT_WITH_TOTALS);
  const totals = inboundTotals(doc, creditNote, fmt);

  const inbound: InboundView = {
    ...inboundBanner(doc, render.notes, fmt),
    differences: inboundDifferences(render.totals, fmt),
    references: inboundReferences(doc, fmt),
    lineDetails: inboundLineDetails(doc, fmt),
    allowances: inboundAllowances(doc, fmt),
    paymentMeans: inboundPaymentMeans(doc, fmt),
    parties: otherParties(doc, fmt),
    attachments: inboundAttachments(doc, fmt),
    verificationCode: verificationCodeView(render.verificationCode),
    otherValues: furtherDetails(doc, fmt),
    dataBlocks: inboundDataBlocks(doc, fmt),
  };

  return {
    // An inbound e-invoice prints in the default design, with no stamp or theme of its own.
    design: DEFAULT_DESIGN,
    stamp: null,
    pageClass: `design-${DEFAULT_DESIGN}`,
    lineNumbers: true,
    style: null,
    title: `${titles.documentTitle} ${doc.number}`,
    lang: locale.language,
    dir: locale.direction === 'rtl' ? 'rtl' : null,
    // A FatturaPA's withholding is what its totals show as settled: under its own name, not "Amount paid".
    labels: prepaidIsWithholding(doc) ? { ...labels, amount_paid: labels.inbound_withholding } : labels,
    ...titles,
    invoiceNumber: doc.number,
    issueDate: fmt.date(doc.issueDate),
    dueDate: doc.dueDate === undefined ? null : fmt.date(doc.dueDate),
    currency: doc.currency,
    seller,
    buyer,
    shipTo: deliveryParty(doc, fmt),
    details: [],
    logo: null,
    accent: null,
    rateColumn,
    totalsPad: rateColumn ? 3 : 2,
    lines: lines.slice(0, split),
    tailLines: lines.slice(split),
    totals,
    totalsRows: totalsRows(totals),
    ...inboundTaxBreakdown(doc, fmt),
    payment: inboundPayment(doc),
    swissQrBill: null,
    envelope: null,
    taxQr: null,
    ...inboundNotes(doc, fmt),
    inbound,
  };
}
