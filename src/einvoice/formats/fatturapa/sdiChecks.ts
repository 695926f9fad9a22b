import type { Issue } from '../../../errors.js';
import { decimalFromNumber, significantScale } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import type { Party } from '../../../invoice/schema.js';
import type { FatturaPAFields } from './fields.js';
import { isCodiceFiscale, isPartitaIva } from './identifiers.js';
import { lineNatura, stampDutyDue, type FatturaModel } from './model.js';
import { isBasicLatin, latin1 } from './text.js';
import { recipientCodeOf, transmitterOf } from './transmission.js';

/**
 * The SDI's controls a request can break, before any payment: each issue names the request field
 * and, as its code, the control of the SDI's technical specifications (allegato A, "elenco dei
 * controlli"): 00200 the schema, 00300–00306 identifiers, 00311/00426/00427 the recipient, 00400/
 * 00401/00413/00414/00420/00445 Natura, 00418/00425 the document's number and dates. Checks the
 * SDI leaves to the law are `fatturapa_…` codes. modelChecks() re-checks the amounts as the SDI
 * does (00419, 00421, 00422, 00423): they hold by construction, and a test tampers with a model
 * to show they would say so.
 */
type Push = (path: string, code: string, message: string) => void;

/** Amount2DecimalType / Amount8DecimalType: at most 11 integer digits. */
const MAX_AMOUNT_MINOR_DIGITS = 11;

export function requestChecks(prepared: PreparedInvoice, fields: FatturaPAFields): Issue[] {
  const issues: Issue[] = [];
  const push: Push = (path, code, message) => issues.push({ path, code, message });
  const { invoice, totals } = prepared;
  identifierChecks(invoice.seller, invoice.buyer, fields, push);
  recipientChecks(invoice.buyer, fields, push);
  partyChecks('seller', invoice.seller, push);
  partyChecks('buyer', invoice.buyer, push);
  naturaChecks(prepared, fields, push);
  documentChecks(prepared, fields, push);
  if (totals.digits > 2)
    push(
      'currency',
      '00200',
      `is ${totals.currency}, whose amounts have ${totals.digits} decimals; FatturaPA amounts have 2`,
    );
  return issues;
}

function identifierChecks(seller: Party, buyer: Party, fields: FatturaPAFields, push: Push): void {
  if (seller.vat_id === undefined)
    push('seller.vat_id', '00200', 'is required: IdFiscaleIVA of the CedentePrestatore (e.g. IT01234567897)');
  else if (seller.vat_id.startsWith('IT') && !isPartitaIva(seller.vat_id.slice(2)))
    push(
      'seller.vat_id',
      '00301',
      'is not a valid partita IVA: IT and 11 digits, the last the check digit (control 00301)',
    );
  if (fields.seller_codice_fiscale !== undefined && !isCodiceFiscale(fields.seller_codice_fiscale))
    push(
      'fatturapa.seller_codice_fiscale',
      '00302',
      'is not a valid codice fiscale: its check character does not match (control 00302)',
    );
  if (buyer.vat_id?.startsWith('IT') && !isPartitaIva(buyer.vat_id.slice(2)))
    push(
      'buyer.vat_id',
      '00305',
      'is not a valid partita IVA: IT and 11 digits, the last the check digit (control 00305)',
    );
  if (fields.buyer_codice_fiscale !== undefined && !isCodiceFiscale(fields.buyer_codice_fiscale))
    push(
      'fatturapa.buyer_codice_fiscale',
      '00306',
      'is not a valid codice fiscale: its check character does not match (control 00306)',
    );
  if (buyer.vat_id === undefined && fields.buyer_codice_fiscale === undefined && (buyer.country ?? 'IT') === 'IT')
    push('buyer.vat_id', '00417', 'or fatturapa.buyer_codice_fiscale is required for an Italian buyer (control 00417)');
  const transmitter = transmitterOf(seller, fields);
  if (fields.transmitter?.country === 'IT' && !isCodiceFiscale(fields.transmitter.id))
    push('fatturapa.transmitter.id', '00300', 'is not a valid Italian codice fiscale or partita IVA (control 00300)');
  if (transmitter === undefined && seller.vat_id !== undefined)
    push('fatturapa.transmitter', '00200', 'is required: the seller’s VAT number is too long to name the transmitter');
}

function recipientChecks(buyer: Party, fields: FatturaPAFields, push: Push): void {
  const format = fields.transmission_format;
  const code = recipientCodeOf(buyer, fields);
  const path = 'fatturapa.recipient_code';
  if (code === undefined)
    push(
      path,
      '00427',
      'is required with transmission_format FPA12: the 6-character office code (codice univoco ufficio)',
    );
  else if (code.length !== 6 && code.length !== 7)
    push(
      path,
      '00311',
      `is ${code.length} characters; the SDI knows codes of 7 (FPR12) or 6 (FPA12) characters (control 00311)`,
    );
  else if ((format === 'FPA12') !== (code.length === 6))
    push(
      path,
      '00427',
      `has ${code.length} characters, but ${format} needs ${format === 'FPA12' ? 6 : 7} (control 00427)`,
    );
  if (fields.recipient_pec !== undefined && code !== '0000000')
    push('fatturapa.recipient_pec', '00426', 'is only allowed with recipient_code 0000000 (control 00426)');
}

function partyChecks(role: 'seller' | 'buyer', party: Party, push: Push): void {
  const text = (field: 'name' | 'street' | 'city', max: number, element: string) => {
    const value = party[field];
    if (value === undefined || value.trim() === '')
      push(`${role}.${field}`, '00200', `is required: ${element} of the ${role}’s address`);
    else if (latin1(value).length > max)
      push(`${role}.${field}`, '00200', `is longer than ${max} characters, the most ${element} holds`);
  };
  text('name', 80, 'Denominazione');
  text('street', 60, 'Indirizzo');
  text('city', 60, 'Comune');
  if (party.country === undefined) push(`${role}.country`, '00200', 'is required: Nazione of the address');
  if (party.country === 'IT' && !/^\d{5}$/.test(party.postal_code ?? ''))
    push(`${role}.postal_code`, '00200', 'is required for an Italian address: CAP, 5 digits');
}

function naturaChecks(prepared: PreparedInvoice, fields: FatturaPAFields, push: Push): void {
  const { totals, invoice } = prepared;
  const zero = (at: number) => totals.lineTax[at]?.rate.coefficient === 0n;
  invoice.line_items.forEach((_, at) => {
    if (zero(at) && lineNatura(prepared, fields, at).natura === undefined)
      push(
        `line_items[${at}]`,
        '00400',
        'has VAT rate 0 and no Natura: name it in fatturapa.natura or fatturapa.line_natura (control 00400)',
      );
  });
  fields.line_natura?.forEach((entry, k) => {
    if (entry.line >= invoice.line_items.length)
      push(
        `fatturapa.line_natura[${k}].line`,
        'invalid_value',
        `names line ${entry.line}, but the invoice has ${invoice.line_items.length}`,
      );
    else if (!zero(entry.line))
      push(
        `fatturapa.line_natura[${k}].code`,
        '00401',
        `is given for line ${entry.line}, whose VAT rate is not 0 (control 00401)`,
      );
  });
  const generic = (code: string | undefined, path: string) => {
    if (code === 'N2' || code === 'N3' || code === 'N6')
      push(
        path,
        '00445',
        `is the generic ${code}, no longer accepted: use a sub-code such as ${code}.1 (control 00445)`,
      );
    if (code?.startsWith('N6') && fields.vat_collectability === 'S')
      push(
        path,
        '00420',
        'is reverse charge (N6.x), which cannot go with split payment (vat_collectability S) (control 00420)',
      );
  };
  generic(fields.natura?.code, 'fatturapa.natura.code');
  fields.line_natura?.forEach((entry, k) => generic(entry.code, `fatturapa.line_natura[${k}].code`));
  generic(fields.pension_fund?.natura, 'fatturapa.pension_fund.natura');
  fields.withholding?.lines?.forEach((line, k) => {
    if (line >= invoice.line_items.length)
      push(
        `fatturapa.withholding.lines[${k}]`,
        'invalid_value',
        `names line ${line}, but the invoice has ${invoice.line_items.length}`,
      );
  });
}

function documentChecks(prepared: PreparedInvoice, fields: FatturaPAFields, push: Push): void {
  const { invoice } = prepared;
  const code20 = (value: string | undefined, path: string) => {
    if (value !== undefined && (value.length > 20 || !isBasicLatin(value)))
      push(path, '00200', 'must be at most 20 ASCII characters (FatturaPA String20Type)');
  };
  code20(invoice.invoice_number, 'invoice_number');
  if (invoice.rounding_amount !== undefined)
    push('rounding_amount', 'fatturapa_rounding', 'is not written in FatturaPA by this service: leave it out');
  if (!/\d/.test(invoice.invoice_number))
    push('invoice_number', '00425', 'must contain at least one digit (control 00425)');
  code20(invoice.purchase_order, 'purchase_order');
  code20(invoice.preceding_invoice?.number, 'preceding_invoice.number');
  if (invoice.issue_date < '1970-01-01') push('issue_date', '00200', 'must not be before 1970-01-01');
  const before = invoice.preceding_invoice?.issue_date;
  if (before !== undefined && invoice.issue_date < before)
    push('preceding_invoice.issue_date', '00418', 'is after the issue_date of this document (control 00418)');
  invoice.line_items.forEach((item, at) => {
    if (item.item_code !== undefined && item.item_code.length > 35)
      push(`line_items[${at}].item_code`, '00200', 'must be at most 35 characters (CodiceValore)');
    if (item.tax_rate !== undefined && significantScale(prepared.totals.lineTax[at]!.rate) > 2)
      push(`line_items[${at}].tax_rate`, '00200', 'must have at most 2 decimals (AliquotaIVA)');
    for (const field of ['quantity', 'unit_price'] as const)
      if (significantScale(decimalFromNumber(item[field])) > 8)
        push(
          `line_items[${at}].${field}`,
          '00200',
          'must have at most 8 decimals (FatturaPA Quantita, PrezzoUnitario)',
        );
  });
  if (
    invoice.line_items.every((item) => item.tax_rate === undefined) &&
    invoice.tax_rate !== undefined &&
    significantScale(prepared.totals.lineTax[0]!.rate) > 2
  )
    push('tax_rate', '00200', 'must have at most 2 decimals (AliquotaIVA)');
  const method = fields.payment_method ?? (invoice.payment?.iban ? 'MP05' : undefined);
  if (method === 'MP05' && invoice.payment?.iban === undefined)
    push('payment.iban', 'fatturapa_iban_required', 'is required with payment_method MP05 (bank transfer)');
  const bic = invoice.payment?.bic;
  if (bic !== undefined && !/^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(bic))
    push('payment.bic', '00200', 'is not a BIC as FatturaPA takes it (8 or 11 capitals and digits)');
}

/** The SDI's arithmetic over the written amounts, and the law's stamp duty (the SDI does not check it). */
export function modelChecks(prepared: PreparedInvoice, fields: FatturaPAFields, model: FatturaModel): Issue[] {
  const issues: Issue[] = [];
  const push: Push = (path, code, message) => issues.push({ path, code, message });
  const cent = model.digits >= 2 ? 10n ** BigInt(model.digits - 2) : 1n;
  const euro = 100n * cent;
  const tooLarge = (minor: bigint) =>
    (minor < 0n ? -minor : minor).toString().length > MAX_AMOUNT_MINOR_DIGITS + model.digits;
  model.lines.forEach((line, n) => {
    const path = line.source === undefined ? `DettaglioLinee[${n}]` : `line_items[${line.source}]`;
    if (tooLarge(line.total))
      push(path, '00200', 'has a line total above 99,999,999,999.99, the most FatturaPA writes');
    if (line.quantity === undefined) return;
    // PrezzoUnitario × Quantita in minor units × 10^scale, against PrezzoTotale within one cent.
    const scale = line.quantity.scale + line.unitPrice.scale;
    const exact = line.quantity.coefficient * line.unitPrice.coefficient * 10n ** BigInt(model.digits);
    const written = line.total * 10n ** BigInt(scale);
    const diff = exact - written;
    if ((diff < 0n ? -diff : diff) > cent * 10n ** BigInt(scale))
      push(path, '00423', 'PrezzoTotale is not PrezzoUnitario × Quantita within 0.01 (control 00423)');
  });
  model.summaries.forEach((summary, n) => {
    const path = `DatiRiepilogo[${n}]`;
    const fromLines =
      model.lines.filter((line) => sameKey(line, summary)).reduce((sum, line) => sum + line.total, 0n) +
      (model.pensionFund &&
      sameKey(
        {
          rate: model.pensionFund.vatRate,
          natura: model.pensionFund.vatRate.coefficient === 0n ? model.pensionFund.natura : undefined,
        },
        summary,
      )
        ? model.pensionFund.amount
        : 0n);
    const gap = summary.taxable - fromLines;
    if ((gap < 0n ? -gap : gap) > euro)
      push(`${path}.ImponibileImporto`, '00422', 'is not the sum of its lines within 1.00 (control 00422)');
    const due = summary.taxable * summary.rate.coefficient;
    const scaled = summary.tax * 100n * 10n ** BigInt(summary.rate.scale);
    const off = due - scaled;
    if ((off < 0n ? -off : off) > cent * 100n * 10n ** BigInt(summary.rate.scale))
      push(`${path}.Imposta`, '00421', 'is not ImponibileImporto × AliquotaIVA within 0.01 (control 00421)');
    if (tooLarge(summary.taxable) || tooLarge(summary.tax))
      push(path, '00200', 'has an amount above 99,999,999,999.99');
  });
  for (const line of model.lines)
    if (!model.summaries.some((summary) => sameKey(line, summary)))
      push('DatiRiepilogo', '00419', 'has no summary for a VAT rate of the lines (control 00419)');
  const total = model.summaries.reduce((sum, summary) => sum + summary.taxable + summary.tax, 0n);
  if (total !== model.total)
    push('ImportoTotaleDocumento', 'fatturapa_total', 'is not the sum of ImponibileImporto and Imposta');
  if (fields.stamp_duty === false && stampDutyDue(prepared, model.summaries))
    push(
      'fatturapa.stamp_duty',
      'fatturapa_stamp_duty',
      'is false, but the amounts without VAT exceed 77.47 EUR: the 2.00 EUR stamp duty is due (DPR 642/1972)',
    );
  return issues;
}

const sameKey = (
  a: { rate: { coefficient: bigint; scale: number }; natura: string | undefined },
  b: { rate: { coefficient: bigint; scale: number }; natura: string | undefined },
) =>
  a.natura === b.natura &&
  a.rate.coefficient * 10n ** BigInt(b.rate.scale) === b.rate.coefficient * 10n ** BigInt(a.rate.scale);
