import { UNIT_CODES_WITH_NAMES, type LabelCatalog, type LabelKey } from '../invoice/labelKeys.js';
import { formatDate, formatPercent, formatQuantity } from '../invoice/localeFormat.js';
import { inTaxCurrency } from '../invoice/taxCurrency.js';
import { toMoney } from '../invoice/money.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Party } from '../invoice/schema.js';
import { buildTotalsReport, type TotalsReport } from '../invoice/totalsReport.js';
import { EXEMPT_CATEGORIES, type VatCategory } from '../invoice/vatCategories.js';
import Handlebars from 'handlebars';
import { formatIban, type PaymentQr } from '../invoice/paymentQr/index.js';
import type { LabelCatalogs } from './labelCatalogs.js';
import { paymentQrSvg } from './paymentQrSvg.js';
import { taxQrView } from './taxQrView.js';
import { envelopeView } from './envelopeView.js';
import { buildSwissQrBillView, swissQrBillLanguage } from './swissQrBillView.js';
import { nonBlank, partyView } from './partyView.js';
import { documentTitleView, registrationNumberOf, taxRegistrationView } from './taxInvoiceMarks.js';
import { textLanguage } from './textLanguage.js';
import { hexColour, lookView, themeOf } from './lookView.js';
import type { DetailView, InvoiceView, LineView, PaymentView, TextView, TotalsView } from './invoiceView.js';

export { formatDate } from '../invoice/localeFormat.js';

/** How many of the last lines are kept on the page of the totals. */
export const LINES_KEPT_WITH_TOTALS = 3;

const UNIT_NAMES = new Set<string>(UNIT_CODES_WITH_NAMES);

export function buildInvoiceView(
  prepared: PreparedInvoice,
  catalogs: LabelCatalogs,
  report: TotalsReport = buildTotalsReport(prepared),
): InvoiceView {
  const { invoice, locale } = prepared;
  const theme = themeOf(prepared);
  const show = theme?.show ?? {};
  // The invoice's own labels win over its theme's.
  const labels: LabelCatalog = {
    ...catalogs[locale.language],
    ...(theme?.labels as Partial<LabelCatalog> | undefined),
    ...(invoice.labels as Partial<LabelCatalog> | undefined),
  };
  const look = lookView(prepared, labels);
  const rateColumn = report.tax_groups.length > 1;
  const percent = (rate: string) => formatPercent(rate, locale);
  const userLang = (text: string) => textLanguage(text, locale.tag);
  const lines = report.lines.map((line, index): LineView => {
    const unit = invoice.line_items[index]?.unit;
    const quantity = formatQuantity(line.quantity, locale);
    return {
      number: index + 1,
      lang: userLang(line.description),
      description: line.description,
      itemCode: show.item_codes === false ? null : (invoice.line_items[index]?.item_code ?? null),
      // A no-break space keeps "8 h" together.
      quantity:
        unit === undefined
          ? quantity
          : `${quantity}\u00a0${UNIT_NAMES.has(unit) ? labels[`unit_${unit}` as LabelKey] : unit}`,
      unitPrice: line.unit_price.formatted,
      rate: percent(line.tax_rate),
      amount: line.amount.formatted,
    };
  });
  const split = Math.max(0, lines.length - LINES_KEPT_WITH_TOTALS);
  const hasDiscount = report.discount.minor !== 0;
  const creditNote = report.document_type === 'credit_note';
  const titles = documentTitleView(creditNote ? labels.credit_note : labels.invoice, locale.language, {
    country: invoice.seller.country,
    registered: nonBlank(invoice.seller.tax_registration_number) !== null,
    creditNote,
  });
  const rounded = invoice.rounding_amount !== undefined;
  // The amount due gets rows of its own when something stands between it and the total.
  const balanceShown = invoice.amount_paid !== undefined || rounded;
  const taxCurrencyRow = taxCurrencyRows(prepared, labels);
  const surcharges = surchargeRows(report, labels, percent);
  const party = (value: Party) => {
    const { number, fromTaxId } = registrationNumberOf(value);
    const view = partyView(value, locale);
    return {
      ...view,
      taxId: fromTaxId ? null : view.taxId,
      taxRegistration: taxRegistrationView(value.country, number, labels, locale.language),
    };
  };
  const view: Omit<InvoiceView, 'totalsRows'> = {
    ...look,
    title: `${titles.documentTitle} ${invoice.invoice_number}`,
    lang: locale.language,
    dir: locale.direction === 'rtl' ? 'rtl' : null,
    labels,
    ...titles,
    invoiceNumber: invoice.invoice_number,
    issueDate: formatDate(report.issue_date, locale),
    dueDate: report.due_date === null ? null : formatDate(report.due_date, locale),
    currency: report.currency.code,
    seller: party(invoice.seller),
    buyer: party(invoice.buyer),
    shipTo: invoice.ship_to ? partyView(invoice.ship_to, locale) : null,
    details: detailsOf(prepared, labels, userLang),
    logo:
      prepared.logo && show.logo !== false
        ? { src: prepared.logo.dataUri, width: prepared.logo.width, height: prepared.logo.height }
        : null,
    // Rebuilt from the parsed number, so only #rrggbb can ever reach the style sheet.
    accent: invoice.accent_color === undefined ? null : hexColour(invoice.accent_color),
    rateColumn,
    totalsPad: (rateColumn ? 3 : 2) - (look.lineNumbers ? 0 : 1),
    lines: lines.slice(0, split),
    tailLines: lines.slice(split),
    totals: {
      subtotal: report.subtotal.formatted,
      discount: hasDiscount ? report.discount.formatted : null,
      taxable: hasDiscount ? report.taxable.formatted : null,
      taxes: [
        ...report.tax_groups.map((group) => ({
          label: `${labels.tax} (${percent(group.rate)})`,
          amount: group.tax.formatted,
        })),
        ...surcharges.map((surcharge) => ({
          label: `${surcharge.category} (${surcharge.rate})`,
          amount: surcharge.tax,
        })),
        ...taxCurrencyRow,
      ],
      totalLabel: creditNote ? labels.total_credit : labels.total_due,
      total: report.total.formatted,
      amountPaid: invoice.amount_paid !== undefined ? report.amount_paid.formatted : null,
      ...(rounded ? { rounding: report.rounding?.formatted ?? null } : {}),
      balanceDue: balanceShown ? report.balance_due.formatted : null,
    },
    vatBreakdown: rateColumn ? [...vatRows(report, labels, percent), ...surcharges] : null,
    exemptions: exemptionsOf(prepared, report, labels, userLang),
    payment: paymentOf(prepared),
    envelope: envelopeView(prepared),
    taxQr: taxQrView(prepared.pageTopCode),
    swissQrBill:
      prepared.paymentQr?.scheme === 'swiss'
        ? buildSwissQrBillView(prepared.paymentQr, swissQrBillLanguage(locale.language))
        : null,
    notes: show.notes === false ? null : textView(invoice.notes, userLang),
    paymentInstructions: textView(invoice.payment_instructions, userLang),
    inbound: null,
  };
  return { ...view, totalsRows: totalsRows(view.totals) };
}

type VatRow = NonNullable<InvoiceView['vatBreakdown']>[number];

function vatRows(report: TotalsReport, labels: LabelCatalog, percent: (rate: string) => string): VatRow[] {
  return report.tax_groups.map((group) => ({
    category: labels[`category_${group.category}`],
    rate: percent(group.rate),
    taxable: group.taxable.formatted,
    tax: group.tax.formatted,
  }));
}

/** A surcharge on top of VAT (Spain's equivalence surcharge): a row of its own in the breakdown and the totals. */
function surchargeRows(report: TotalsReport, labels: LabelCatalog, percent: (rate: string) => string): VatRow[] {
  return (report.surcharges ?? []).map((surcharge) => ({
    category: labels.equivalence_surcharge,
    rate: percent(surcharge.rate),
    taxable: surcharge.taxable.formatted,
    tax: surcharge.amount.formatted,
  }));
}

/**
 * The rows templates/partials/totals.hbs prints (the left cell spans them): the subtotal; the discount and
 * taxable amount; one per tax; then the total, amount paid, rounding and balance due, or the total alone.
 */
export function totalsRows(totals: TotalsView): number {
  const due = totals.balanceDue ? 2 + (totals.amountPaid ? 1 : 0) + (totals.rounding ? 1 : 0) : 1;
  return 1 + (totals.discount ? 2 : 0) + totals.taxes.length + due;
}

/**
 * The VAT total in the tax currency (BT-111) under the VAT rows, when the request's tax_currency
 * differs from the invoice currency: converted at its exchange rate exactly as the e-invoice
 * writes it (src/invoice/taxCurrency.ts), in that currency's decimals.
 */
function taxCurrencyRows({ invoice, totals, locale }: PreparedInvoice, labels: LabelCatalog): TotalsView['taxes'] {
  const taxCurrency = invoice.tax_currency;
  if (taxCurrency === undefined || taxCurrency.code === invoice.currency) return [];
  const tax = inTaxCurrency(totals.tax, totals.digits, taxCurrency);
  return [
    {
      label: labels.tax_currency_total.replace('{currency}', taxCurrency.code),
      amount: toMoney(tax, taxCurrency.code, locale.tag).formatted,
    },
  ];
}

function detailsOf(prepared: PreparedInvoice, labels: LabelCatalog, userLang: (text: string) => string): DetailView[] {
  const { invoice, locale } = prepared;
  const detail = (label: string, value: string | undefined): DetailView[] =>
    value === undefined || value.trim() === '' ? [] : [{ label, value, lang: userLang(value) }];
  const preceding = invoice.preceding_invoice;
  return [
    ...detail(labels.purchase_order, invoice.purchase_order),
    ...detail(labels.buyer_reference, invoice.buyer_reference),
    ...detail(
      labels.preceding_invoice,
      preceding &&
        (preceding.issue_date ? `${preceding.number} (${formatDate(preceding.issue_date, locale)})` : preceding.number),
    ),
    ...(invoice.custom_fields ?? []).flatMap((field) => detail(field.label, field.value)),
  ];
}

/** One note per exempt category on the invoice: the request's reason, else the standard wording. */
function exemptionsOf(
  prepared: PreparedInvoice,
  report: TotalsReport,
  labels: LabelCatalog,
  userLang: (text: string) => string,
): TextView[] {
  const categories = [...new Set(report.tax_groups.map((group) => group.category))].filter(
    (category): category is Exclude<VatCategory, 'S' | 'Z'> => EXEMPT_CATEGORIES.has(category),
  );
  if (categories.length === 0) return [];
  const reason = prepared.invoice.tax_exemption_reason;
  if (reason !== undefined) return [{ lang: userLang(reason), text: reason }];
  return categories.map((category) => ({ lang: prepared.locale.language, text: labels[`exemption_${category}`] }));
}

function paymentOf({ invoice, paymentQr }: PreparedInvoice): PaymentView | null {
  const payment = invoice.payment;
  const qr = paymentQr && paymentQr.scheme !== 'swiss' ? qrView(paymentQr) : null;
  if (!payment || (!payment.iban && !payment.bic && !payment.account_name && !payment.reference && !qr)) return null;
  return {
    accountName: payment.account_name ?? null,
    // Printed in groups of four, as IBANs are written on paper.
    iban: payment.iban ? formatIban(payment.iban) : null,
    bic: payment.bic ?? null,
    reference: payment.reference ?? null,
    qr,
  };
}

/**
 * The code and, beside it, what it pays in plain text, so that a payer whose app cannot read it
 * still has everything (the EPC code's bank details are the panel's own lines). Scheme names are
 * names, not words to translate.
 */
function qrView(qr: Exclude<PaymentQr, { scheme: 'swiss' }>): NonNullable<PaymentView['qr']> {
  // SafeString: the SVG is geometry only, drawn from the payload's bits (paymentQrSvg.ts).
  const svg = new Handlebars.SafeString(paymentQrSvg(qr.payload, { size: '30mm' }).svg);
  switch (qr.scheme) {
    case 'epc':
      return { svg, scheme: 'SEPA (EPC QR)', lines: [] };
    case 'pix':
      return { svg, scheme: 'PIX', lines: [qr.details.key, `BRL ${qr.details.amount}`] };
    case 'upi':
      return { svg, scheme: 'UPI', lines: [qr.details.vpa, `INR ${qr.details.amount}`] };
    case 'eip681':
      return {
        svg,
        scheme: 'USDC · Base',
        lines: [`${qr.details.amount} USDC`, `Base (chain ${qr.details.chainId})`, qr.details.address],
      };
  }
}

function textView(text: string | undefined, userLang: (text: string) => string): TextView | null {
  const value = nonBlank(text);
  return value === null ? null : { lang: userLang(value), text: value };
}
