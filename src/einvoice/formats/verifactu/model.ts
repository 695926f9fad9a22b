import { minorToDecimal } from '../../../invoice/money.js';
import { decimalFromNumber, decimalToString, type Decimal } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { divideRounded, scaleRounded } from '../../../invoice/rounding.js';
import type { VatCategory } from '../../../invoice/vatCategories.js';
import { altaHuella, anulacionHuella } from './huella.js';
import { isExemption, TAXES, type IdType, type InvoiceType, type Qualification, type RegimeKey } from './codes.js';
import type { InvoiceReference, VatGroupFields, VerifactuFields } from './fields.js';
import { nifOfVatId } from './nif.js';
import { qrUrl, type AeatEnvironment } from './qr.js';
import { recordDate, spanishTimestamp } from './spanishTime.js';
import type { SistemaInformatico } from './system.js';

/**
 * The billing record of a request, every value as the XML writes it (amounts with two decimals,
 * dates DD-MM-YYYY), so that the huella, the QR URL, the writer and validate's answer all read the
 * same text. Built after the request's shapes are checked; checks.ts judges it.
 */
export interface RecordReference {
  nif: string;
  number: string;
  date: string;
}

export interface DetailLine {
  /** Which entry of the invoice's VAT groups this is (checks name verifactu.vat_groups by it). */
  group: number;
  category: VatCategory;
  rate: Decimal;
  impuesto: '01' | '02' | '03';
  regime: RegimeKey;
  qualification: Qualification | undefined;
  /** Whether the request's vat_groups named this group. */
  entry: number | undefined;
  taxMinor: bigint;
  baseMinor: bigint;
  surchargeMinor: bigint;
  surchargeRate: Decimal | undefined;
}

export interface Recipient {
  name: string;
  nif?: string;
  other?: { country: string | undefined; type: IdType; id: string };
}

interface RecordCommon {
  issuerNif: string;
  issuerName: string;
  number: string;
  date: string;
  /** The invoice's issue date as sent (YYYY-MM-DD). */
  isoDate: string;
  previous: (RecordReference & { huella: string }) | undefined;
  generatedAt: string;
  system: SistemaInformatico;
  externalReference: string | undefined;
  huella: string;
}

export interface AltaRecord extends RecordCommon {
  kind: 'alta';
  type: InvoiceType;
  correction: 'S' | 'I' | undefined;
  corrected: RecordReference[];
  replaced: RecordReference[];
  correctedAmounts: { base: string; tax: string; surcharge: string | undefined } | undefined;
  operationDate: string | undefined;
  description: string;
  simplified7273: boolean;
  withoutRecipient61d: boolean;
  macrodato: boolean;
  recipients: Recipient[];
  details: DetailLine[];
  cuotaTotalMinor: bigint;
  importeTotalMinor: bigint;
  cuotaTotal: string;
  importeTotal: string;
  qrUrl: string;
}

export interface AnulacionRecord extends RecordCommon {
  kind: 'anulacion';
}

export type BillingRecord = AltaRecord | AnulacionRecord;

export interface RecordSettings {
  system: SistemaInformatico;
  environment: AeatEnvironment;
  now: Date;
}

export const money = (minor: bigint): string => minorToDecimal(minor, 2);
/** A request amount in euro cents. */
const toCents = (value: number): bigint => {
  const decimal = decimalFromNumber(value);
  return scaleRounded(decimal.coefficient, decimal.scale, 2);
};
/** Tipo2.2: a percentage with two decimals, as AEAT's examples write it (21.00, 5.20). */
export const percentText = (rate: Decimal): string => minorToDecimal(scaleRounded(rate.coefficient, rate.scale, 2), 2);

/** The seller's NIF: from vat_id ES…, else tax_id when it is nine capitals or digits. */
export function issuerNifOf(prepared: PreparedInvoice): string | undefined {
  const { seller } = prepared.invoice;
  return nifOfVatId(seller.vat_id) ?? (/^[0-9A-Z]{9}$/.test(seller.tax_id ?? '') ? seller.tax_id : undefined);
}

const reference = (ref: InvoiceReference, issuer: string): RecordReference => ({
  nif: ref.issuer_nif ?? issuer,
  number: ref.invoice_number,
  date: recordDate(ref.issue_date),
});

function invoiceTypeOf(prepared: PreparedInvoice, fields: VerifactuFields): InvoiceType {
  return fields.invoice_type ?? (prepared.invoice.document_type === 'credit_note' ? 'R4' : 'F1');
}

export function buildRecord(
  prepared: PreparedInvoice,
  fields: VerifactuFields,
  settings: RecordSettings,
): BillingRecord {
  const { invoice } = prepared;
  const issuerNif = issuerNifOf(prepared) ?? '';
  const previous = fields.previous
    ? {
        nif: fields.previous.issuer_nif,
        number: fields.previous.invoice_number,
        date: recordDate(fields.previous.issue_date),
        huella: fields.previous.huella,
      }
    : undefined;
  const common = {
    issuerNif,
    issuerName: invoice.seller.name,
    number: invoice.invoice_number,
    date: recordDate(invoice.issue_date),
    isoDate: invoice.issue_date,
    previous,
    generatedAt: spanishTimestamp(settings.now),
    system: settings.system,
    externalReference: fields.external_reference,
  };
  if (fields.record === 'cancellation') {
    const huella = anulacionHuella({
      IDEmisorFacturaAnulada: common.issuerNif,
      NumSerieFacturaAnulada: common.number,
      FechaExpedicionFacturaAnulada: common.date,
      Huella: previous?.huella ?? '',
      FechaHoraHusoGenRegistro: common.generatedAt,
    });
    return { kind: 'anulacion', ...common, huella };
  }
  const type = invoiceTypeOf(prepared, fields);
  const rectifying = type.startsWith('R');
  const sign = invoice.document_type === 'credit_note' ? -1n : 1n;
  const details = detailLines(prepared, fields, sign);
  const cuotaTotalMinor = details.reduce((sum, line) => sum + line.taxMinor + line.surchargeMinor, 0n);
  const importeTotalMinor = details.reduce(
    (sum, line) => sum + line.baseMinor + line.taxMinor + line.surchargeMinor,
    0n,
  );
  const cuotaTotal = money(cuotaTotalMinor);
  const importeTotal = money(importeTotalMinor);
  const huella = altaHuella({
    IDEmisorFactura: common.issuerNif,
    NumSerieFactura: common.number,
    FechaExpedicionFactura: common.date,
    TipoFactura: type,
    CuotaTotal: cuotaTotal,
    ImporteTotal: importeTotal,
    Huella: previous?.huella ?? '',
    FechaHoraHusoGenRegistro: common.generatedAt,
  });
  const preceding = invoice.preceding_invoice;
  const corrected =
    fields.corrected_invoices ??
    (rectifying && preceding?.issue_date
      ? [{ invoice_number: preceding.number, issue_date: preceding.issue_date }]
      : []);
  const correction = rectifying ? (fields.correction === 'substitution' ? 'S' : 'I') : undefined;
  const amounts = fields.corrected_amounts;
  return {
    kind: 'alta',
    ...common,
    huella,
    type,
    correction,
    corrected: corrected.map((ref) => reference(ref, issuerNif)),
    replaced: (fields.replaced_invoices ?? []).map((ref) => reference(ref, issuerNif)),
    correctedAmounts: amounts
      ? {
          base: money(toCents(amounts.base)),
          tax: money(toCents(amounts.tax)),
          surcharge: amounts.surcharge === undefined ? undefined : money(toCents(amounts.surcharge)),
        }
      : undefined,
    operationDate: fields.operation_date ? recordDate(fields.operation_date) : undefined,
    description: (fields.description ?? invoice.line_items[0]?.description ?? invoice.invoice_number).slice(0, 500),
    simplified7273: fields.simplified_art_7273 ?? false,
    withoutRecipient61d: fields.without_recipient_art_61d ?? false,
    macrodato: (importeTotalMinor < 0n ? -importeTotalMinor : importeTotalMinor) >= 10_000_000_000n,
    recipients: type === 'F2' || type === 'R5' ? [] : recipientsOf(prepared, fields),
    details,
    cuotaTotalMinor,
    importeTotalMinor,
    cuotaTotal,
    importeTotal,
    qrUrl: qrUrl(
      { nif: issuerNif, numserie: common.number, fecha: common.date, importe: importeTotal },
      fields.mode,
      fields.environment ?? settings.environment,
    ),
  };
}

/** The default qualification of an EN 16931 category; E and O must be named (their cause is the issuer's). */
const DEFAULT_QUALIFICATION: Partial<Record<VatCategory, Qualification>> = {
  S: 'S1',
  Z: 'S1',
  AE: 'S2',
  K: 'E5',
  G: 'E2',
};

function groupEntry(
  entries: readonly VatGroupFields[] | undefined,
  category: VatCategory,
  rate: Decimal,
): number | undefined {
  const wanted = decimalToString(rate);
  const at = (entries ?? []).findIndex(
    (entry) => decimalToString(decimalFromNumber(entry.rate)) === wanted && (entry.category ?? category) === category,
  );
  return at < 0 ? undefined : at;
}

function detailLines(prepared: PreparedInvoice, fields: VerifactuFields, sign: bigint): DetailLine[] {
  return prepared.totals.groups.map((group, index) => {
    const at = groupEntry(fields.vat_groups, group.category, group.rate);
    const entry = at === undefined ? undefined : fields.vat_groups?.[at];
    const qualification = entry?.qualification ?? DEFAULT_QUALIFICATION[group.category];
    const exportLike = qualification === 'E2' || qualification === 'E3';
    const regime = entry?.regime ?? (exportLike && fields.regime === '01' ? '02' : fields.regime);
    const surchargeRate = entry?.surcharge_rate === undefined ? undefined : decimalFromNumber(entry.surcharge_rate);
    const surchargeMinor = surchargeRate
      ? divideRounded(group.taxable * surchargeRate.coefficient, 100n * 10n ** BigInt(surchargeRate.scale))
      : 0n;
    return {
      group: index,
      category: group.category,
      rate: group.rate,
      impuesto: TAXES[fields.tax],
      regime,
      qualification,
      entry: at,
      baseMinor: sign * group.taxable,
      taxMinor: sign * group.tax,
      surchargeMinor: sign * surchargeMinor,
      surchargeRate,
    };
  });
}

/** Whether a detail line writes TipoImpositivo and CuotaRepercutida (S1, S2) or neither (N1, N2, exempt). */
export const writesRate = (line: DetailLine): boolean =>
  line.qualification !== undefined && !isExemption(line.qualification) && line.qualification.startsWith('S');

const EU_PREFIXES = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV',
  'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI',
]); // prettier-ignore

/** The buyer as Destinatarios/IDDestinatario: a Spanish NIF, an EU VAT number (IDType 02), or another document. */
function recipientsOf(prepared: PreparedInvoice, fields: VerifactuFields): Recipient[] {
  const { buyer } = prepared.invoice;
  const nif = nifOfVatId(buyer.vat_id);
  if (nif && fields.buyer_id_type === undefined) return [{ name: buyer.name, nif }];
  const prefix = buyer.vat_id?.slice(0, 2);
  if (buyer.vat_id && prefix && EU_PREFIXES.has(prefix) && (fields.buyer_id_type ?? '02') === '02')
    return [{ name: buyer.name, other: { country: undefined, type: '02', id: buyer.vat_id } }];
  const id = buyer.tax_id ?? buyer.vat_id;
  if (id === undefined) return [];
  const type = fields.buyer_id_type ?? '06';
  return [{ name: buyer.name, other: { country: type === '07' ? 'ES' : buyer.country, type, id } }];
}

/** The `previous` of the record that follows `record` in its system's chain (a batch chains its records so). */
export function previousOf(record: BillingRecord): NonNullable<VerifactuFields['previous']> {
  return {
    issuer_nif: record.issuerNif,
    invoice_number: record.number,
    issue_date: record.isoDate,
    huella: record.huella,
  };
}
