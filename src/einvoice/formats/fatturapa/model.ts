import { decimalFromNumber, decimalToString, type Decimal } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { divideRounded } from '../../../invoice/rounding.js';
import type { VatCategory } from '../../../invoice/vatCategories.js';
import type { FatturaPAFields, NaturaCode } from './fields.js';

/**
 * A FatturaPA body as amounts, before any XML: the lines as DettaglioLinee (the invoice discount as
 * one negative line per VAT group, as the SDI sums ImponibileImporto from PrezzoTotale), the
 * pension fund contribution, DatiRiepilogo per (AliquotaIVA, Natura), the withholding, stamp duty,
 * ImportoTotaleDocumento and ImportoPagamento. Amounts are bigint minor units of the invoice's
 * currency, computed from the same Totals validate answers: without a pension fund every summary
 * is exactly its VAT group of the JSON totals. writer.ts only prints this; sdiChecks.ts re-checks
 * its arithmetic as the SDI does.
 */
export interface FLine {
  /** The index in line_items, or undefined for a discount line. */
  source: number | undefined;
  description: string;
  quantity: Decimal | undefined;
  unit: string | undefined;
  itemCode: string | undefined;
  unitPrice: Decimal;
  total: bigint;
  /** Percent with up to 2 decimals (the request schema's tax_rate). */
  rate: Decimal;
  natura: NaturaCode | undefined;
  legalReference: string | undefined;
  withholding: boolean;
}

export interface FSummary {
  rate: Decimal;
  natura: NaturaCode | undefined;
  legalReference: string | undefined;
  taxable: bigint;
  tax: bigint;
}

interface FPensionFund {
  type: string;
  rate: Decimal;
  base: bigint;
  amount: bigint;
  vatRate: Decimal;
  natura: NaturaCode | undefined;
  withholding: boolean;
}

export interface FatturaModel {
  digits: number;
  lines: FLine[];
  pensionFund: FPensionFund | undefined;
  summaries: FSummary[];
  withholding: { type: string; rate: Decimal; reason: string; base: bigint; amount: bigint } | undefined;
  /** DatiBollo (virtual stamp duty of 2.00 EUR) is written. */
  stampDuty: boolean;
  /** ImportoTotaleDocumento: Σ ImponibileImporto + Σ Imposta. */
  total: bigint;
  /** ImportoPagamento: the total less the withholding and the amount already paid. */
  payable: bigint;
}

/** Natura a 0 % line takes from its VAT category when the request names none (one meaning each). */
const CATEGORY_NATURA: Partial<Record<VatCategory, NaturaCode>> = { K: 'N3.2', G: 'N3.1', E: 'N4' };
/** Natura codes whose amounts count towards the stamp duty threshold (exports and intra-EU supplies do not). */
const STAMP_DUTY_NATURA = /^(N1|N2\.[12]|N3\.[56]|N4)$/;
const STAMP_DUTY_THRESHOLD_CENTS = 7747n;

const isZero = (rate: Decimal) => rate.coefficient === 0n;
const percentOf = (amount: bigint, rate: Decimal) =>
  divideRounded(amount * rate.coefficient, 100n * 10n ** BigInt(rate.scale));

/** The Natura of line `at` of a 0 % line (request first, then the category's own), with its legal reference. */
export function lineNatura(
  prepared: PreparedInvoice,
  fields: FatturaPAFields,
  at: number,
): { natura: NaturaCode | undefined; legalReference: string | undefined } {
  const own = fields.line_natura?.findLast((entry) => entry.line === at);
  const chosen = own ?? fields.natura;
  const category = prepared.totals.lineTax[at]?.category;
  const natura = chosen?.code ?? (category ? CATEGORY_NATURA[category] : undefined);
  return {
    natura,
    legalReference: chosen?.legal_reference ?? prepared.invoice.tax_exemption_reason?.slice(0, 100),
  };
}

export function buildFatturaModel(prepared: PreparedInvoice, fields: FatturaPAFields): FatturaModel {
  const { invoice, totals } = prepared;
  const withheld = new Set(fields.withholding?.lines ?? invoice.line_items.map((_, at) => at));
  const lines: FLine[] = invoice.line_items.map((item, at) => {
    const rate = totals.lineTax[at]!.rate;
    const { natura, legalReference } = isZero(rate)
      ? lineNatura(prepared, fields, at)
      : { natura: undefined, legalReference: undefined };
    return {
      source: at,
      description: item.description,
      quantity: decimalFromNumber(item.quantity),
      unit: item.unit,
      itemCode: item.item_code,
      unitPrice: decimalFromNumber(item.unit_price),
      total: totals.lineAmounts[at]!,
      rate,
      natura,
      legalReference,
      withholding: fields.withholding !== undefined && withheld.has(at),
    };
  });
  for (const group of totals.groups) {
    if (group.discount === 0n) continue;
    const first = lines.find(
      (line) =>
        compareRates(line.rate, group.rate) === 0 && totals.lineTax[line.source ?? 0]?.category === group.category,
    );
    lines.push({
      source: undefined,
      description: 'Sconto',
      quantity: undefined,
      unit: undefined,
      itemCode: undefined,
      unitPrice: { coefficient: -group.discount, scale: totals.digits },
      total: -group.discount,
      rate: group.rate,
      natura: first?.natura,
      legalReference: first?.legalReference,
      withholding: first?.withholding ?? false,
    });
  }
  const pensionFund = buildPensionFund(lines, fields);
  const summaries = summarise(lines, pensionFund);
  const total = summaries.reduce((sum, summary) => sum + summary.taxable + summary.tax, 0n);
  const withholding = fields.withholding && {
    type: fields.withholding.type,
    rate: decimalFromNumber(fields.withholding.rate),
    reason: fields.withholding.reason,
    base: 0n,
    amount: 0n,
  };
  if (withholding) {
    withholding.base =
      lines.reduce((sum, line) => sum + (line.withholding ? line.total : 0n), 0n) +
      (pensionFund?.withholding ? pensionFund.amount : 0n);
    withholding.amount = percentOf(withholding.base, withholding.rate);
  }
  return {
    digits: totals.digits,
    lines,
    pensionFund,
    summaries,
    withholding,
    stampDuty: fields.stamp_duty ?? stampDutyDue(prepared, summaries),
    total,
    payable: total - (withholding?.amount ?? 0n) - totals.amountPaid,
  };
}

function buildPensionFund(lines: FLine[], fields: FatturaPAFields): FPensionFund | undefined {
  const fund = fields.pension_fund;
  if (!fund) return undefined;
  // Amounts excluded from the VAT base (art. 15, N1) are no fee the contribution is due on.
  const base = lines.reduce((sum, line) => sum + (line.natura === 'N1' ? 0n : line.total), 0n);
  const rate = decimalFromNumber(fund.rate);
  const highest = lines.reduce<Decimal>((best, line) => (compareRates(line.rate, best) > 0 ? line.rate : best), {
    coefficient: 0n,
    scale: 0,
  });
  const vatRate = fund.vat_rate === undefined ? highest : decimalFromNumber(fund.vat_rate);
  return {
    type: fund.type,
    rate,
    base,
    amount: percentOf(base, rate),
    vatRate,
    natura: fund.natura,
    withholding: fund.withholding ?? false,
  };
}

function compareRates(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.coefficient * 10n ** BigInt(scale - a.scale);
  const right = b.coefficient * 10n ** BigInt(scale - b.scale);
  return left === right ? 0 : left > right ? 1 : -1;
}

/** DatiRiepilogo: one per (rate, Natura) in order of first appearance, the tax rounded once per summary. */
function summarise(lines: FLine[], fund: FPensionFund | undefined): FSummary[] {
  const byKey = new Map<string, FSummary>();
  const add = (rate: Decimal, natura: NaturaCode | undefined, legalReference: string | undefined, amount: bigint) => {
    const key = `${decimalToString(rate)}|${natura ?? ''}`;
    const summary = byKey.get(key) ?? { rate, natura, legalReference, taxable: 0n, tax: 0n };
    summary.taxable += amount;
    summary.legalReference ??= legalReference;
    byKey.set(key, summary);
  };
  for (const line of lines) add(line.rate, line.natura, line.legalReference, line.total);
  if (fund) add(fund.vatRate, isZero(fund.vatRate) ? fund.natura : undefined, undefined, fund.amount);
  const summaries = [...byKey.values()];
  for (const summary of summaries) summary.tax = percentOf(summary.taxable, summary.rate);
  return summaries;
}

/** The stamp duty is due on an EUR invoice whose amounts without VAT (other than exports, intra-EU) exceed 77.47. */
export function stampDutyDue(prepared: PreparedInvoice, summaries: FSummary[]): boolean {
  if (prepared.totals.currency !== 'EUR') return false;
  const untaxed = summaries
    .filter((summary) => summary.natura !== undefined && STAMP_DUTY_NATURA.test(summary.natura))
    .reduce((sum, summary) => sum + summary.taxable, 0n);
  return untaxed > STAMP_DUTY_THRESHOLD_CENTS;
}
