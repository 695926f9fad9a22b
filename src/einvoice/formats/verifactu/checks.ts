import type { Issue } from '../../../errors.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { isRectifying, REGIMES_OF } from './codes.js';
import { detailIssues } from './detailChecks.js';
import type { VerifactuFields } from './fields.js';
import { isValidNif, nifOfVatId } from './nif.js';
import { issuerNifOf, type AltaRecord, type BillingRecord } from './model.js';

/**
 * The rules a VERI*FACTU record must keep that a request can break, checked before payment. Each
 * issue's code is the AEAT error code (errores.properties) the record would otherwise be answered
 * with, and its message says which; checks AEAT leaves to the law or to its census are
 * `verifactu_…` codes. All issues are reported at once. detailChecks.ts judges the tax breakdown.
 */
type Push = (path: string, code: string, message: string) => void;

/** AEAT's first admissible issue date (validations 3.1.3.1, error 1152). */
const FIRST_ISSUE_DATE = '2024-10-28';
/** ImporteSgn12.2: at most 12 integer digits, in cents. */
const MAX_CENTS = 10n ** 14n;
/** F2's limit as AEAT checks it: Σ(base + cuota) ≤ 3 000,00 € with a tolerance of 10 € (error 1150). */
const F2_LIMIT_CENTS = 301_000n;

export function checkRecord(
  prepared: PreparedInvoice,
  fields: VerifactuFields,
  record: BillingRecord,
  today: string,
): Issue[] {
  const issues: Issue[] = [];
  const push: Push = (path, code, message) => issues.push({ path, code, message });
  identityChecks(prepared, fields, record, today, push);
  if (record.kind === 'alta') {
    typeChecks(prepared, fields, record, push);
    recipientChecks(prepared, fields, record, push);
    amountChecks(record, push);
    for (const found of detailIssues(prepared, fields, record)) issues.push(found);
  }
  return issues;
}

function identityChecks(
  prepared: PreparedInvoice,
  fields: VerifactuFields,
  record: BillingRecord,
  today: string,
  push: Push,
): void {
  const { invoice } = prepared;
  const nif = issuerNifOf(prepared);
  if (nif === undefined)
    push(
      'seller.vat_id',
      '4104',
      'is required: the issuer’s Spanish NIF as ES + NIF (ObligadoEmision and IDEmisorFactura; AEAT answers 4104 without it)',
    );
  else if (!isValidNif(nif))
    push(
      nifOfVatId(invoice.seller.vat_id) ? 'seller.vat_id' : 'seller.tax_id',
      '4116',
      `${nif} is not a valid NIF: its check character does not match (AEAT error 4116, ObligadoEmision NIF)`,
    );
  if (invoice.currency !== 'EUR')
    push(
      'currency',
      'verifactu_currency',
      `is ${invoice.currency}; a VERI*FACTU record states its amounts in euros (EUR)`,
    );
  if (invoice.invoice_number.length > 60)
    push('invoice_number', '1104', 'must be at most 60 characters (NumSerieFactura, AEAT error 1104)');
  if (!/^[\u0020-\u007E]*$/.test(invoice.invoice_number))
    push('invoice_number', '1130', 'must be printable ASCII characters only (NumSerieFactura, AEAT error 1130)');
  else if (/["'<>=]/.test(invoice.invoice_number))
    push('invoice_number', '1287', 'must not contain " \' < > or = (NumSerieFactura, AEAT error 1287)');
  if (invoice.issue_date < FIRST_ISSUE_DATE)
    push('issue_date', '1152', 'must not be before 2024-10-28 (FechaExpedicionFactura, AEAT error 1152)');
  if (invoice.issue_date > today)
    push('issue_date', '1112', `must not be after today (${today}, Spanish time; AEAT error 1112)`);
  if (fields.previous && !isValidNif(fields.previous.issuer_nif))
    push(
      'verifactu.previous.issuer_nif',
      '1180',
      'is not a valid NIF: its check character does not match (Encadenamiento, AEAT error 1180)',
    );
  if (fields.previous && fields.previous.huella === record.huella)
    push('verifactu.previous.huella', '2008', 'must differ from the record’s own huella (AEAT error 2008)');
  if (!REGIMES_OF[fields.tax].includes(fields.regime))
    push('verifactu.regime', '1246', `${fields.regime} is not a ClaveRegimen of ${fields.tax} (AEAT error 1246)`);
}

function typeChecks(prepared: PreparedInvoice, fields: VerifactuFields, record: AltaRecord, push: Push): void {
  const { type } = record;
  const rectifying = isRectifying(type);
  if (!rectifying && fields.correction !== undefined)
    push('verifactu.correction', '1115', `is only for rectifying invoices R1-R5, not ${type} (AEAT error 1115)`);
  if (!rectifying && fields.corrected_invoices !== undefined)
    push(
      'verifactu.corrected_invoices',
      '1117',
      `are only for rectifying invoices R1-R5, not ${type} (AEAT error 1117)`,
    );
  if (rectifying && record.corrected.length === 0)
    push(
      'verifactu.corrected_invoices',
      'verifactu_corrected_invoices',
      `must name the invoices an ${type} corrects (FacturasRectificadas; RD 1619/2012 art. 15 requires it), or give preceding_invoice with its issue_date`,
    );
  if (type !== 'F3' && fields.replaced_invoices !== undefined)
    push(
      'verifactu.replaced_invoices',
      '1116',
      `are only for an F3, not ${type} (FacturasSustituidas, AEAT error 1116)`,
    );
  if (record.correction === 'S' && fields.corrected_amounts === undefined)
    push(
      'verifactu.corrected_amounts',
      '1118',
      'is required for a correction by substitution: the corrected invoice’s base and tax (ImporteRectificacion, AEAT error 1118)',
    );
  if (record.correction !== 'S' && fields.corrected_amounts !== undefined)
    push('verifactu.corrected_amounts', '1119', 'is only for a correction by substitution (AEAT error 1119)');
  for (const [at, ref] of [...(fields.corrected_invoices ?? []), ...(fields.replaced_invoices ?? [])].entries())
    if (ref.issuer_nif !== undefined && !isValidNif(ref.issuer_nif))
      push(
        at < (fields.corrected_invoices?.length ?? 0)
          ? `verifactu.corrected_invoices[${at}].issuer_nif`
          : `verifactu.replaced_invoices[${at - (fields.corrected_invoices?.length ?? 0)}].issuer_nif`,
        '1154',
        'is not a valid NIF: its check character does not match (AEAT error 1154)',
      );
  if (fields.simplified_art_7273 && (type === 'F2' || type === 'R5'))
    push('verifactu.simplified_art_7273', '1183', `is only for F1, F3 and R1-R4, not ${type} (AEAT error 1183)`);
  if (fields.without_recipient_art_61d && type !== 'F2' && type !== 'R5')
    push('verifactu.without_recipient_art_61d', '1185', `is only for F2 and R5, not ${type} (AEAT error 1185)`);
  if (fields.operation_date !== undefined) {
    const deferred = record.details.every((line) => line.regime === '14' || line.regime === '15');
    if (fields.operation_date > prepared.invoice.issue_date && !deferred)
      push(
        'verifactu.operation_date',
        '1146',
        'may follow the issue date only with ClaveRegimen 14 or 15 (AEAT error 1146)',
      );
  }
  if (type === 'F2' && !record.withoutRecipient61d) {
    const sum = record.details.reduce((total, line) => total + line.baseMinor + line.taxMinor, 0n);
    if ((sum < 0n ? -sum : sum) > F2_LIMIT_CENTS)
      push(
        'verifactu.invoice_type',
        '1150',
        `F2 (simplified) is limited to 3000.00 EUR of base and tax (AEAT's tolerance 10 EUR); this invoice has ${record.importeTotal}: issue an F1 (AEAT error 1150)`,
      );
  }
}

function recipientChecks(prepared: PreparedInvoice, fields: VerifactuFields, record: AltaRecord, push: Push): void {
  const { type } = record;
  const { buyer } = prepared.invoice;
  const buyerNif = nifOfVatId(buyer.vat_id);
  if (type === 'F2' || type === 'R5') {
    if (buyerNif !== undefined)
      push(
        'buyer.vat_id',
        '1190',
        `names a Spanish NIF, but an ${type} has no recipient (Destinatarios, AEAT error 1190): issue an F1 to identify the buyer`,
      );
    return;
  }
  const [recipient] = record.recipients;
  if (recipient === undefined) {
    push(
      'buyer.vat_id',
      '1189',
      `is required for an ${type}: the buyer’s NIF as ES + NIF, an EU VAT number, or tax_id with verifactu.buyer_id_type (Destinatarios, AEAT error 1189)`,
    );
    return;
  }
  if (recipient.nif !== undefined && !isValidNif(recipient.nif))
    push(
      'buyer.vat_id',
      '1123',
      `${recipient.nif} is not a valid NIF: its check character does not match (AEAT error 1123)`,
    );
  if (recipient.nif !== undefined && recipient.nif === record.issuerNif)
    push('buyer.vat_id', '1193', 'must differ from the issuer’s NIF (AEAT error 1193)');
  const other = recipient.other;
  if (other) {
    if (other.id.length > 20)
      push('buyer.tax_id', '1103', 'must be at most 20 characters (IDOtro/ID, AEAT error 1103)');
    if (other.type !== '02' && other.country === undefined)
      push(
        'buyer.country',
        '1111',
        'is required for a buyer identified without a NIF or EU VAT number (AEAT error 1111)',
      );
    if (other.country === 'ES' && other.type !== '03' && other.type !== '07')
      push(
        'verifactu.buyer_id_type',
        '1126',
        'must be 03 (passport) or 07 (not registered) for a Spanish buyer without NIF (AEAT error 1126)',
      );
    if (other.type === '07' && !isValidNif(other.id))
      push('buyer.tax_id', '1131', 'must be the NIF of a natural person with IDType 07 (AEAT error 1131)');
  }
  if (type === 'R3' && other && other.type !== '07')
    push('verifactu.buyer_id_type', '1191', 'an R3 names its recipient by NIF or IDType 07 only (AEAT error 1191)');
  if (type === 'R2' && other && other.type !== '07' && other.type !== '02')
    push('verifactu.buyer_id_type', '1192', 'an R2 names its recipient by NIF, IDType 02 or 07 only (AEAT error 1192)');
}

function amountChecks(record: AltaRecord, push: Push): void {
  const amounts: [string, bigint][] = [
    ['ImporteTotal', record.importeTotalMinor],
    ['CuotaTotal', record.cuotaTotalMinor],
    ...record.details.map((line): [string, bigint] => ['BaseImponibleOimporteNoSujeto', line.baseMinor]),
  ];
  for (const [name, cents] of amounts)
    if ((cents < 0n ? -cents : cents) >= MAX_CENTS) {
      push(
        'line_items',
        '4102',
        `the record's ${name} ${(Number(cents) / 100).toFixed(2)} has more than 12 integer digits, which AEAT's amount format (ImporteSgn12.2) cannot write (AEAT error 4102)`,
      );
      return;
    }
  if (record.details.length > 12)
    push(
      'line_items',
      '4102',
      `the invoice has ${record.details.length} VAT groups; a record holds at most 12 (DetalleDesglose, AEAT error 4102)`,
    );
}
