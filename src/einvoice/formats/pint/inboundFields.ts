import * as v from 'valibot';
import { E_INVOICE_INVOICE_FIELDS } from '../../../invoice/eInvoiceFields.js';
import { currencyDigits, isCurrencyCode, type CurrencyCode } from '../../../invoice/currencies.js';
import type { InvoiceInput } from '../../../invoice/schema.js';
import { inTaxCurrency } from '../../../invoice/taxCurrency.js';
import { parseDecimal } from '../../inbound/decimalText.js';
import type { InboundInvoice, InParty } from '../../inbound/model.js';
import { otherValue } from '../../inbound/otherValue.js';
import { jsonLineSources } from '../../inbound/takeIntoLines.js';
import { PINT_JURISDICTIONS, type PintProfile } from './jurisdictions.js';

/**
 * A received PINT document's own fields in the JSON invoice (src/einvoice/inbound/toInvoiceJson.ts
 * reads only what EN 16931 shares), so that inspect checks the profile's rules on what the document
 * states and re-issuing it under its profile writes them again: the tax registration number (BT-31/48,
 * written by PINT as the party's tax identifier), the country subdivision (BT-39/54, the UAE's
 * emirate), the trade licence's issuer (BTAE-12), the exemption reason code (BT-121), the invoicing
 * period (BG-14), the tax currency with the rate that gives its stated BT-111 (else the document's own
 * rate, BTAE-04) and the UAE credit note's reason code (BTAE-03).
 */
export const pintInboundFields =
  (profile: PintProfile) =>
  (document: InboundInvoice, invoice: InvoiceInput, folded: string[]): InvoiceInput => {
    const exemptionCode = exemptionCodeOf(document);
    const taxCurrency = taxCurrencyOf(document) ?? statedExchangeRate(document) ?? untaxedRate(document, folded);
    const reason = otherValue(document, 'DiscrepancyResponse/ResponseCode');
    // A self-billing document is re-issued as the seller's invoice (inspect's folded says so): its process is billing's.
    const { business_process: process, ...rest } = invoice;
    const selfBilling = /^urn:peppol:pint:selfbilling-1@/.test(document.customization.trim());
    return {
      ...rest,
      ...(process !== undefined && !selfBilling ? { business_process: process } : {}),
      line_items: jurisdictionCodes(profile, document, invoice.line_items),
      seller: party(profile, document.seller, invoice.seller),
      buyer: party(profile, document.buyer, invoice.buyer),
      ...(exemptionCode && TAX_EXEMPTION_CODE.test(exemptionCode) ? { tax_exemption_code: exemptionCode } : {}),
      ...(document.periodStart && document.periodEnd && document.periodStart <= document.periodEnd
        ? { invoicing_period: { start: document.periodStart, end: document.periodEnd } }
        : {}),
      ...(taxCurrency ? { tax_currency: taxCurrency } : {}),
      ...(profile === 'pint-ae' && invoice.document_type === 'credit_note' && isCreditNoteReason(reason)
        ? { credit_note_reason_code: reason }
        : {}),
    };
  };

/**
 * A line coded with the jurisdiction's own tax code (Singapore's ESN33, Malaysia's SE, Japan's AA): its
 * EN 16931 category and the code as tax_code, as a request names them (toInvoiceJson reads EN 16931's only).
 */
function jurisdictionCodes(
  profile: PintProfile,
  document: InboundInvoice,
  lines: InvoiceInput['line_items'],
): InvoiceInput['line_items'] {
  const { lineCodes } = PINT_JURISDICTIONS[profile];
  const sources = jsonLineSources(document);
  return lines.map((line, at) => {
    const code = sources[at]?.category?.trim();
    const category = code === undefined ? undefined : lineCodes[code];
    return category === undefined || code === line.tax_category
      ? line
      : { ...line, tax_category: category, tax_code: code };
  });
}

/** BTAE-03, the UAE credit note's reason (DiscrepancyResponse), when it is one of the official list. */
const isCreditNoteReason = (code: string | undefined): code is NonNullable<InvoiceInput['credit_note_reason_code']> =>
  code !== undefined && v.is(E_INVOICE_INVOICE_FIELDS.credit_note_reason_code, code);

/**
 * The tax currency from the document's own exchange rate (TaxExchangeRate, the UAE's BTAE-04), where
 * the VAT total cannot give it (an export at 0 % has no tax to convert).
 */
function statedExchangeRate(document: InboundInvoice): InvoiceInput['tax_currency'] {
  const code = otherValue(document, 'TaxExchangeRate/TargetCurrencyCode');
  const source = otherValue(document, 'TaxExchangeRate/SourceCurrencyCode');
  const rate = Number(otherValue(document, 'TaxExchangeRate/CalculationRate'));
  return code !== undefined &&
    code === document.taxCurrency?.trim() &&
    isCurrencyCode(code) &&
    code !== document.currency &&
    source === document.currency &&
    rate > 0
    ? { code, exchange_rate: rate }
    : undefined;
}

/** The formats of the JSON fields (src/invoice/eInvoiceFields.ts): a value they refuse stays shown from the document only. */
const TAX_REGISTRATION_NUMBER = /^[0-9A-Za-z][0-9A-Za-z-]{1,39}$/;
const TAX_EXEMPTION_CODE = /^[A-Z0-9][A-Z0-9.-]{1,39}$/;

function party(
  profile: PintProfile,
  source: InParty,
  converted: NonNullable<InvoiceInput['seller']>,
): NonNullable<InvoiceInput['seller']> {
  // PINT writes tax_registration_number as the party's tax identifier (pintDocument.ts), under the tax scheme VAT or
  // GST (the reader calls the latter a tax registration); the EU keeps vat_id, Malaysia the TIN in tax_id (formats.ts).
  const number = (source.vatId ?? source.taxRegistration)?.replace(/\s+/g, '');
  const registered =
    profile !== 'pint-eu' && profile !== 'pint-my' && number !== undefined && TAX_REGISTRATION_NUMBER.test(number)
      ? number
      : undefined;
  const subdivision = source.address?.subdivision?.trim();
  const issuer = source.legalIssuer?.trim();
  const { tax_id: taxId, ...rest } = converted;
  return {
    ...rest,
    // toInvoiceJson puts an identifier without VAT country prefix in tax_id; it is the tax registration number here.
    ...(taxId !== undefined && taxId !== registered ? { tax_id: taxId } : {}),
    ...(registered ? { tax_registration_number: registered } : {}),
    ...(subdivision && subdivision.length <= 50 ? { country_subdivision: subdivision } : {}),
    ...(converted.legal_registration && issuer
      ? { legal_registration: { ...converted.legal_registration, issuer } }
      : {}),
  };
}

/**
 * The tax currency (BT-6) and the rate that turns the document's VAT total (BT-110) into its BT-111:
 * the document states no rate (UBL's TaxExchangeRate is optional), so the shortest rate that gives
 * the stated BT-111 back, rounded as the writer does (src/invoice/taxCurrency.ts).
 */
function taxCurrencyOf(document: InboundInvoice): InvoiceInput['tax_currency'] {
  const code = document.taxCurrency?.trim();
  if (code === undefined || code === document.currency || !isCurrencyCode(code) || !isCurrencyCode(document.currency))
    return undefined;
  const [amount, currency] = (document.totals.taxTotalAccounting ?? '').split(' ');
  if (currency !== undefined && currency !== code) return undefined;
  const fromTax = rateGiving(document.currency, document.totals.taxTotal, code, amount);
  if (fromTax !== undefined) return fromTax;
  // No VAT to convert (all zero rated): Singapore states the total without GST in SGD too (sgdtotal-excl-gst,
  // read as a document reference with the currency as its id), which the same rate gives from BT-109.
  const total = document.attachments.find((item) => item.id === code && /^\d+(?:\.\d+)?$/.test(item.description ?? ''));
  return rateGiving(document.currency, document.totals.taxBasis, code, total?.description);
}

/** The shortest rate that turns `from` (invoice currency) into `to` (tax currency) as the writer rounds (src/invoice/taxCurrency.ts). */
function rateGiving(
  invoiceCurrency: CurrencyCode,
  from: string | undefined,
  code: CurrencyCode,
  to: string | undefined,
): InvoiceInput['tax_currency'] {
  const source = parseDecimal(from);
  const target = parseDecimal(to);
  if (source === undefined || target === undefined || source <= 0n) return undefined;
  const ratio = Number(target) / Number(source);
  // parseDecimal's values are in 10^-6 units; the writer converts minor units.
  const invoiceDigits = currencyDigits(invoiceCurrency);
  const sourceMinor = source / 10n ** BigInt(6 - invoiceDigits);
  const targetMinor = target / 10n ** BigInt(6 - currencyDigits(code));
  for (let decimals = 0; decimals <= 10; decimals++) {
    const given = { code, exchange_rate: Number(ratio.toFixed(decimals)) };
    if (given.exchange_rate > 0 && inTaxCurrency(sourceMinor, invoiceDigits, given) === targetMinor) return given;
  }
  return undefined;
}

/**
 * A foreign-currency document without VAT states its tax currency (BT-6) and a VAT total of 0 in it
 * (BT-111) but no rate, and no amount gives one: any rate gives that 0, and this service writes no rate
 * outside the UAE, so 1 stands in (folded says so), as a request needs one.
 */
function untaxedRate(document: InboundInvoice, folded: string[]): InvoiceInput['tax_currency'] {
  const code = document.taxCurrency?.trim();
  const [amount] = (document.totals.taxTotalAccounting ?? '').split(' ');
  if (code === undefined || !isCurrencyCode(code) || code === document.currency) return undefined;
  if (parseDecimal(document.totals.taxTotal) !== 0n || parseDecimal(amount) !== 0n) return undefined;
  folded.push(
    `tax_currency ${code}: the document states no exchange rate and no VAT to convert; 1 stands in, as any rate gives 0 ${code}`,
  );
  return { code, exchange_rate: 1 };
}

/** The exemption reason code of the exempt breakdown (BT-121), else of an exempt line (IBT-186, read as an other value). */
export function exemptionCodeOf(document: InboundInvoice): string | undefined {
  return (
    document.breakdown.find((group) => group.category === 'E' && group.exemptionCode !== undefined)?.exemptionCode ??
    document.otherValues.find((value) => /ClassifiedTaxCategory(?:\[\d+\])?\/TaxExemptionReasonCode$/.test(value.path))
      ?.value
  );
}
