import type { Issue } from '../../../errors.js';
import { decimalToString, type Decimal } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { isExemption } from './codes.js';
import type { VerifactuFields } from './fields.js';
import type { AltaRecord, DetailLine } from './model.js';

/**
 * The tax breakdown's rules (AEAT validations 3.1.3.15): each VAT group's qualification against its
 * tax, the regime key's conditions, the rates valid for Spain on the operation date and the
 * equivalence surcharge that goes with each. Issues name the group's entry in verifactu.vat_groups
 * when the request has one, else the first line of the group.
 */
const IVA_RATES = ['0', '2', '4', '5', '7.5', '10', '21'];
/**
 * IGIC and IPSI rates are not checked by AEAT; the service refuses rates these taxes do not have:
 * IGIC's rates (Ley 4/2012 art. 51 and later reduced rates) and IPSI's range of 0.5 % to 10 % (Ley 8/1991).
 */
const IGIC_RATES = ['0', '1', '3', '5', '7', '9.5', '13.5', '15', '20'];
const SURCHARGE_RATES = ['0', '0.26', '0.5', '0.62', '1', '1.4', '1.75', '5.2'];

type Push = (line: DetailLine, field: string, code: string, message: string) => void;

export function detailIssues(prepared: PreparedInvoice, fields: VerifactuFields, record: AltaRecord): Issue[] {
  const issues: Issue[] = [];
  const push: Push = (line, field, code, message) =>
    issues.push({ path: pathOf(prepared, line, field), code, message });
  const operationDate = fields.operation_date ?? prepared.invoice.issue_date;
  for (const line of record.details) {
    qualificationChecks(line, fields, record, push);
    regimeChecks(line, fields, record, push);
    if (line.qualification === 'S1') rateChecks(line, fields, operationDate, push);
    surchargeChecks(line, fields, operationDate, push);
  }
  return issues;
}

/** The request field an issue of a group names: its vat_groups entry, or the group's first line. */
function pathOf(prepared: PreparedInvoice, line: DetailLine, field: string): string {
  if (line.entry !== undefined) return `verifactu.vat_groups[${line.entry}].${field}`;
  if (field !== 'rate') return 'verifactu.vat_groups';
  const at = prepared.totals.lineTax.findIndex(
    (tax) => tax.category === line.category && decimalToString(tax.rate) === decimalToString(line.rate),
  );
  return `line_items[${Math.max(at, 0)}].tax_rate`;
}

const rateText = (rate: Decimal) => decimalToString(rate);
const groupName = (line: DetailLine) => `the VAT group ${line.category} ${rateText(line.rate)} %`;

function qualificationChecks(line: DetailLine, fields: VerifactuFields, record: AltaRecord, push: Push): void {
  const q = line.qualification;
  if (q === undefined) {
    push(
      line,
      'qualification',
      '1195',
      `${groupName(line)} needs its qualification: N1 or N2 (not subject) or E1-E6 (exempt, with its cause) in verifactu.vat_groups (AEAT error 1195)`,
    );
    return;
  }
  const taxed = line.taxMinor !== 0n || line.rate.coefficient !== 0n;
  if (isExemption(q)) {
    if (taxed)
      push(line, 'qualification', '1238', `${q} is an exemption, but ${groupName(line)} is taxed (AEAT error 1238)`);
    if ((q === 'E7' || q === 'E8') && fields.tax !== 'IGIC')
      push(line, 'qualification', '1182', `${q} is an IGIC exemption only (AEAT error 1182)`);
    if (q === 'E5' && fields.tax === 'IVA' && record.recipients.some((recipient) => recipient.nif !== undefined))
      push(
        line,
        'qualification',
        '1289',
        'E5 (intra-EU supply) needs a buyer identified by an EU VAT number, not a Spanish NIF (AEAT error 1289)',
      );
    if (line.surchargeRate !== undefined)
      push(line, 'surcharge_rate', '1238', 'an exempt operation carries no equivalence surcharge (AEAT error 1238)');
    return;
  }
  if ((q === 'N1' || q === 'N2') && taxed)
    push(
      line,
      'qualification',
      '1237',
      `${q} is not subject to tax, but ${groupName(line)} is taxed (AEAT error 1237)`,
    );
  if (q === 'S2') {
    if (taxed)
      push(
        line,
        'qualification',
        '1198',
        `S2 (reverse charge) has rate and tax 0, but ${groupName(line)} is taxed (AEAT error 1198)`,
      );
    if (record.type === 'F2' || record.type === 'R5')
      push(line, 'qualification', '1197', `S2 is only for F1, F3 and R1-R4, not ${record.type} (AEAT error 1197)`);
  }
  if (line.surchargeRate !== undefined && q !== 'S1')
    push(line, 'surcharge_rate', '1281', 'the equivalence surcharge goes only with S1 (AEAT error 1281)');
}

function regimeChecks(line: DetailLine, fields: VerifactuFields, record: AltaRecord, push: Push): void {
  const q = line.qualification;
  const exempt = q !== undefined && isExemption(q);
  const fail = (code: string, message: string) =>
    push(line, 'regime', code, `ClaveRegimen ${line.regime}: ${message} (AEAT error ${code})`);
  switch (line.regime) {
    case '01':
      if (q === 'E2' || q === 'E3') fail('1199', 'E2 and E3 (exports) need ClaveRegimen 02');
      break;
    case '02':
      if (!exempt) fail('1286', 'an export is qualified by an exemption only (E2, E3…)');
      break;
    case '03':
      if (!exempt && q !== 'S1') fail('1200', 'REBU takes S1 or an exemption');
      break;
    case '04':
      if (!exempt && q !== 'S2') fail('1201', 'investment gold takes S2 or an exemption');
      break;
    case '06':
      fail('1202', 'the VAT group regime needs BaseImponibleACoste, which the service does not write');
      break;
    case '07':
      if (q === 'S2' || q === 'N1' || q === 'N2' || q === 'E2' || q === 'E3' || q === 'E4' || q === 'E5')
        fail('1203', 'cash accounting excludes S2, N1, N2 and E2-E5');
      break;
    case '08':
      if (q !== 'N2') fail('1252', 'operations subject to IPSI/IGIC are N2');
      break;
    case '10':
      if (q !== 'N1' || record.type !== 'F1' || record.recipients.some((recipient) => recipient.nif === undefined))
        fail('1205', 'collections for third parties are N1, on an F1, to a buyer identified by NIF');
      break;
    case '11':
      if (fields.tax === 'IVA' && rateText(line.rate) !== '21') fail('1206', 'a business lease is taxed at 21 %');
      break;
    case '14':
      if (!['F1', 'R1', 'R2', 'R3', 'R4'].includes(record.type)) fail('1148', 'the invoice type must be F1 or R1-R4');
      else if (
        fields.operation_date === undefined ||
        record.operationDate === undefined ||
        fields.operation_date <= record.isoDate
      )
        fail('1147', 'verifactu.operation_date is required and after the issue date');
      else if (!record.recipients.every((recipient) => /^[PQSV]/.test(recipient.nif ?? '')))
        fail('1149', 'the buyer must be a public body identified by a NIF starting with P, Q, S or V');
      break;
    case '20':
      if (fields.tax === 'IGIC' && q !== 'N2') fail('1293', 'operations subject to IPSI are N2');
      break;
    default:
      break;
  }
  if (line.regime === '21' && fields.tax !== 'IGIC') fail('1246', '21 is an IGIC regime only');
}

function rateChecks(line: DetailLine, fields: VerifactuFields, date: string, push: Push): void {
  const rate = rateText(line.rate);
  if (fields.tax === 'IGIC') {
    if (!IGIC_RATES.includes(rate))
      push(line, 'rate', 'verifactu_igic_rate', `${rate} % is not an IGIC rate (${IGIC_RATES.join(', ')})`);
    return;
  }
  if (fields.tax === 'IPSI') {
    if (rate !== '0' && (Number(rate) < 0.5 || Number(rate) > 10))
      push(line, 'rate', 'verifactu_ipsi_rate', `${rate} % is outside IPSI's rates (0.5 % to 10 %)`);
    return;
  }
  if (!IVA_RATES.includes(rate))
    push(
      line,
      'rate',
      '1124',
      `${rate} % is not a Spanish VAT rate (0, 4, 10, 21; 5, 2, 7.5 in their periods; AEAT error 1124)`,
    );
  else if (rate === '5' && (date < '2022-07-01' || date > '2024-09-30'))
    push(line, 'rate', '1194', '5 % applies to operations from 2022-07-01 to 2024-09-30 only (AEAT error 1194)');
  else if ((rate === '2' || rate === '7.5') && (date < '2024-10-01' || date > '2024-12-31'))
    push(
      line,
      'rate',
      rate === '2' ? '1235' : '1236',
      `${rate} % applies to operations from 2024-10-01 to 2024-12-31 only`,
    );
}

/** The surcharge that goes with each IVA rate (validations 15.3; errors 1127, 1160-1170). */
function allowedSurcharges(rate: string, date: string): string[] {
  switch (rate) {
    case '21':
      return ['5.2', '1.75'];
    case '10':
      return ['1.4'];
    case '7.5':
      return ['1'];
    case '5':
      return date <= '2022-12-31' ? ['0.5'] : ['0.62'];
    case '4':
      return ['0.5'];
    case '2':
      return ['0.26'];
    case '0':
      return date >= '2024-10-01' ? ['0.26'] : date >= '2023-01-01' ? ['0'] : [];
    default:
      return [];
  }
}

function surchargeChecks(line: DetailLine, fields: VerifactuFields, date: string, push: Push): void {
  if (line.surchargeRate === undefined || line.qualification !== 'S1' || fields.tax !== 'IVA') return;
  const surcharge = rateText(line.surchargeRate);
  const rate = rateText(line.rate);
  if (!SURCHARGE_RATES.includes(surcharge))
    push(
      line,
      'surcharge_rate',
      '1127',
      `${surcharge} % is not an equivalence surcharge rate (${SURCHARGE_RATES.join(', ')}; AEAT error 1127)`,
    );
  else if (!allowedSurcharges(rate, date).includes(surcharge))
    push(
      line,
      'surcharge_rate',
      rate === '21' ? '1162' : rate === '10' ? '1163' : rate === '4' ? '1164' : '1277',
      `${surcharge} % does not go with VAT at ${rate} % (allowed: ${allowedSurcharges(rate, date).join(', ') || 'none'})`,
    );
}
