import type { InvoiceView } from './invoiceView.js';

/**
 * What an invoice must show, whatever its design: the facts the built-in designs print, read from
 * the invoice's view model (the very strings the templates receive), each with the invoice field it
 * stands for. A fact is either text the page must contain, or a drawing the service made (a payment
 * QR code) whose path the page must contain. The content contract (checkContract.ts) and the
 * print-time check (printedFacts.ts) ask the same list, of the reference invoices and of the invoice
 * being printed.
 */
export interface Fact {
  field: string;
  /** Text, compared with white space collapsed. */
  text?: string;
  /** The `d` of an SVG path the page must hold (a QR code's modules). */
  drawing?: string;
}

export function factsOf(view: InvoiceView): Fact[] {
  const facts: Fact[] = [];
  const text = (field: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined && value.trim() !== '') facts.push({ field, text: value });
  };
  text('document_type', view.documentTitle);
  text('invoice_number', view.invoiceNumber);
  text('issue_date', view.issueDate);
  text('due_date', view.dueDate);
  text('currency', view.currency);
  for (const [field, party] of [
    ['seller', view.seller],
    ['buyer', view.buyer],
  ] as const) {
    text(`${field}.name`, party.name);
    text(`${field}.address`, party.address);
    text(`${field}.vat_id`, party.vatId);
    text(`${field}.tax_id`, party.taxId);
    text(`${field}.tax_registration_number`, party.taxRegistration?.value);
  }
  view.details.forEach((detail, index) => text(`details[${index}]`, detail.value));
  [...view.lines, ...view.tailLines].forEach((line, index) => {
    text(`line_items[${index}].description`, line.description);
    text(`line_items[${index}].amount`, line.amount);
  });
  const { totals } = view;
  text('totals.subtotal', totals.subtotal);
  text('totals.discount', totals.discount);
  totals.taxes.forEach((tax, index) => text(`totals.tax[${index}]`, tax.amount));
  text('totals.total', totals.total);
  text('totals.amount_paid', totals.amountPaid);
  text('totals.due', totals.balanceDue);
  view.vatBreakdown?.forEach((row, index) => {
    text(`vat_breakdown[${index}].rate`, row.rate);
    text(`vat_breakdown[${index}].tax`, row.tax);
  });
  view.exemptions.forEach((exemption, index) => text(`tax_exemption_reason[${index}]`, exemption.text));
  const payment = view.payment;
  if (payment) {
    text('payment.account_name', payment.accountName);
    text('payment.iban', payment.iban);
    text('payment.bic', payment.bic);
    text('payment.reference', payment.reference);
    if (payment.qr) {
      facts.push({ field: 'payment.qr', drawing: qrPathOf(payment.qr.svg.toString()) });
      payment.qr.lines.forEach((line, index) => text(`payment.qr.lines[${index}]`, line));
    }
  }
  if (view.swissQrBill) {
    facts.push({ field: 'payment.swiss_qr_bill', drawing: qrPathOf(view.swissQrBill.qrSvg.toString()) });
    text('payment.swiss_qr_bill.amount', view.swissQrBill.amount);
  }
  if (view.taxQr) {
    facts.push({ field: 'verifactu.qr', drawing: qrPathOf(view.taxQr.svg.toString()) });
    text('verifactu.caption', view.taxQr.caption);
    text('verifactu.legend', view.taxQr.legend);
  }
  text('payment_instructions', view.paymentInstructions?.text);
  text('notes', view.notes?.text);
  text('stamp', view.stamp?.text);
  return facts;
}

/** The modules of a QR code the service drew (paymentQrSvg.ts: one path). */
function qrPathOf(svg: string): string {
  const found = /<path fill="#000" d="([^"]+)"/.exec(svg);
  if (!found) throw new Error('a payment QR code is one path (paymentQrSvg.ts)');
  return found[1]!;
}

/** White space other than one space between words: most facts have none, and are their own collapse. */
const NEEDS_COLLAPSE = /[^\S ]| {2}|^ | $/;
/** White space collapsed (no-break spaces included: \s holds U+00A0 and U+202F), as facts and page text are compared. */
export const collapsed = (text: string): string =>
  NEEDS_COLLAPSE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;

/** The facts the page's text and drawings do not hold. */
export function missingFacts(facts: readonly Fact[], page: { text: string; drawings: ReadonlySet<string> }): Fact[] {
  const text = collapsed(page.text);
  return facts.filter((fact) =>
    fact.drawing !== undefined ? !page.drawings.has(fact.drawing) : !text.includes(collapsed(fact.text!)),
  );
}
