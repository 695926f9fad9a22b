import { minorDigitsOf } from '../../invoice/currencies.js';
import { divide, microsToText, HUNDRED, multiply, parseDecimal, roundTo } from './decimalText.js';
import {
  TOTAL_KEYS,
  type InAllowanceCharge,
  type InBreakdown,
  type InboundInvoice,
  type TotalDifference,
  type TotalKey,
  type TotalsComparison,
} from '../../invoice/inboundInvoice.js';

export type { TotalsComparison } from '../../invoice/inboundInvoice.js';

/**
 * The document's own totals (BG-22) beside the same totals recomputed from its lines, allowances,
 * charges and VAT breakdown by the EN 16931 calculation rules (BR-CO-10…16, BR-S-08, line net
 * BT-131 = quantity × price ÷ base quantity − allowances + charges, which no EN 16931 rule enforces:
 * its differences carry the code line_net), with every difference. The
 * recomputation rounds each sum to 2 decimals, as the standard's amounts are.
 */
const TOTAL_TERMS: Record<TotalKey, { bt: string; rule: string }> = {
  line_total: { bt: 'BT-106', rule: 'BR-CO-10' },
  allowance_total: { bt: 'BT-107', rule: 'BR-CO-11' },
  charge_total: { bt: 'BT-108', rule: 'BR-CO-12' },
  tax_basis: { bt: 'BT-109', rule: 'BR-CO-13' },
  tax_total: { bt: 'BT-110', rule: 'BR-CO-14' },
  grand_total: { bt: 'BT-112', rule: 'BR-CO-15' },
  prepaid: { bt: 'BT-113', rule: 'BR-CO-16' },
  rounding: { bt: 'BT-114', rule: 'BR-CO-16' },
  due_payable: { bt: 'BT-115', rule: 'BR-CO-16' },
};

/**
 * Where a profile's own rules compute a document's totals otherwise than EN 16931 (Peppol PINT:
 * src/einvoice/formats/pint/inboundTotals.ts), so that only what differs under them is reported.
 */
export interface InboundTotalsRules {
  /** Breakdown categories whose VAT is 0 whatever rate they name (the UAE's reverse charge; Japan's non-tax-registered seller). */
  untaxed?(category: string): boolean;
  /** Categories whose lines, allowances and charges belong to their breakdown whatever rate each names. */
  anyRate?(category: string): boolean;
  /** The document's own amounts are compared rounded to 2 decimals, as its rules compare them. */
  roundStated?: boolean;
  /** A breakdown of another tax than VAT (Malaysia's tourism tax): its basis and tax, undefined where its rules derive none. */
  otherTax?(
    group: InBreakdown,
    invoice: InboundInvoice,
  ): { basis: bigint | undefined; tax: bigint | undefined } | undefined;
}

const sum = (values: (bigint | undefined)[]) => values.reduce<bigint>((total, value) => total + (value ?? 0n), 0n);
const signed = (item: InAllowanceCharge) => (item.charge ? 1n : -1n) * (parseDecimal(item.amount) ?? 0n);

/** Records a total that differs from its recomputation: (field, BT, rule, the document's value, the recomputed one). */
type Differ = (
  field: string,
  bt: string,
  rule: string,
  documentValue: bigint | undefined,
  recomputed: bigint | undefined,
) => void;

/** A Differ that compares rounded to 2 decimals (the stated value too where the profile's rules say so). */
function differenceList(rules: InboundTotalsRules): { differ: Differ; differences: TotalDifference[] } {
  const differences: TotalDifference[] = [];
  const differ: Differ = (field, bt, rule, documentValue, recomputed) => {
    if (documentValue === undefined || recomputed === undefined) return;
    const rounded = roundTo(recomputed, 2);
    const stated = rules.roundStated ? roundTo(documentValue, 2) : documentValue;
    if (rounded !== stated) {
      differences.push({
        field,
        bt,
        rule,
        document: microsToText(documentValue),
        recomputed: microsToText(rounded),
        difference: microsToText(documentValue - rounded),
      });
    }
  };
  return { differ, differences };
}

/**
 * The document's totals compared by EN 16931's calculation rules, with a format's departures from
 * them (`rules`, its reading.totals hook: src/einvoice/formats/pint/inboundTotals.ts). A received
 * document's comparison is documentTotals's (nationalProfile.ts), which asks its format first.
 */
export function compareTotals(invoice: InboundInvoice, rules: InboundTotalsRules = {}): TotalsComparison {
  const { totals } = invoice;
  const { differ, differences } = differenceList(rules);

  compareLineNets(invoice, differ);
  const hasLines = invoice.lines.length > 0;
  const lineTotal = hasLines ? sum(invoice.lines.map((line) => parseDecimal(line.net))) : undefined;
  const allowances = invoice.allowances.filter((item) => !item.charge);
  const charges = invoice.allowances.filter((item) => item.charge);
  const allowanceTotal = sum(allowances.map((item) => parseDecimal(item.amount)));
  const chargeTotal = sum(charges.map((item) => parseDecimal(item.amount)));
  // Without lines (MINIMUM, BASIC WL) the document's own sums stand in for the lines'.
  const lineBase = lineTotal ?? parseDecimal(totals.lineTotal);
  const taxBasis = lineBase === undefined ? undefined : lineBase - allowanceTotal + chargeTotal;
  const taxTotal = compareBreakdown(invoice, rules, differ);

  const grandTotal = taxBasis === undefined ? undefined : taxBasis + (taxTotal ?? 0n);
  const prepaid = parseDecimal(totals.prepaid) ?? 0n;
  const rounding = parseDecimal(totals.rounding) ?? 0n;
  const duePayable = grandTotal === undefined ? undefined : grandTotal - prepaid + rounding;

  const recomputedValues: Record<TotalKey, bigint | undefined> = {
    line_total: lineTotal,
    allowance_total: allowanceTotal,
    charge_total: chargeTotal,
    tax_basis: taxBasis,
    tax_total: taxTotal,
    grand_total: grandTotal,
    prepaid,
    rounding,
    due_payable: duePayable,
  };
  const documentValues: Record<TotalKey, string | undefined> = {
    line_total: totals.lineTotal,
    allowance_total: totals.allowanceTotal,
    charge_total: totals.chargeTotal,
    tax_basis: totals.taxBasis,
    tax_total: totals.taxTotal,
    grand_total: totals.grandTotal,
    prepaid: totals.prepaid,
    rounding: totals.rounding,
    due_payable: totals.duePayable,
  };
  for (const total of TOTAL_KEYS) {
    // An absent allowance, charge, prepaid or rounding total is zero (BT-107/108/113/114 are optional).
    const stated =
      parseDecimal(documentValues[total]) ??
      (['allowance_total', 'charge_total', 'prepaid', 'rounding'].includes(total) ? 0n : undefined);
    differ(total, TOTAL_TERMS[total].bt, TOTAL_TERMS[total].rule, stated, recomputedValues[total]);
  }
  return {
    document: Object.fromEntries(TOTAL_KEYS.map((total) => [total, documentValues[total] ?? null])) as Record<
      TotalKey,
      string | null
    >,
    recomputed: Object.fromEntries(
      TOTAL_KEYS.map((total) => [
        total,
        recomputedValues[total] === undefined ? null : microsToText(recomputedValues[total]!),
      ]),
    ) as Record<TotalKey, string | null>,
    differences,
  };
}

/**
 * BT-131 of every line against quantity × price ÷ base quantity − allowances + charges; a line
 * without a price (ZUGFeRD 1.0 BASIC states only the line's amount) has nothing to recompute.
 */
function compareLineNets(invoice: InboundInvoice, differ: Differ): void {
  invoice.lines.forEach((line, at) => {
    const quantity = parseDecimal(line.quantity) ?? 0n;
    const price = parseDecimal(line.price);
    if (price === undefined) return;
    const base = parseDecimal(line.baseQuantity) ?? 0n;
    const gross = divide(multiply(quantity, price), base === 0n ? HUNDRED / 100n : base);
    differ(
      `lines[${at}].net`,
      'BT-131',
      'line_net',
      parseDecimal(line.net),
      roundTo(gross, 2) + sum(line.allowances.map(signed)),
    );
  });
}

/**
 * Each VAT group (BG-23) against the lines, allowances and charges of its category and rate;
 * answers the sum of the groups' stated VAT (BT-110 recomputed), undefined without a breakdown.
 */
function compareBreakdown(invoice: InboundInvoice, rules: InboundTotalsRules, differ: Differ): bigint | undefined {
  const hasLines = invoice.lines.length > 0;
  const key = (category: string | undefined, rate: string | undefined) =>
    rules.anyRate?.(category ?? '') ? `${category}|any` : `${category ?? ''}|${parseDecimal(rate) ?? 0n}`;
  let taxTotal: bigint | undefined = invoice.breakdown.length > 0 ? 0n : undefined;
  const digits = minorDigitsOf(invoice.currency);
  const minorUnit = parseDecimal('1')! / 10n ** BigInt(digits);
  invoice.breakdown.forEach((group, at) => {
    const groupKey = key(group.category, group.rate);
    const other = rules.otherTax?.(group, invoice);
    const basis = other
      ? other.basis
      : hasLines
        ? sum(
            invoice.lines
              .filter((line) => key(line.category, line.rate) === groupKey)
              .map((line) => parseDecimal(line.net)),
          ) + sum(invoice.allowances.filter((item) => key(item.category, item.rate) === groupKey).map(signed))
        : parseDecimal(group.basis);
    differ(`vat_breakdown[${at}].basis`, 'BT-116', 'BR-S-08', parseDecimal(group.basis), basis);
    const rate = rules.untaxed?.(group.category) ? 0n : (parseDecimal(group.rate) ?? 0n);
    const tax = other
      ? other.tax
      : basis === undefined
        ? undefined
        : roundTo(divide(multiply(basis, rate), HUNDRED), digits);
    // BR-CO-17 lets each group's VAT differ by rounding; one minor unit either way (a cent, a yen) is not reported.
    const documentTax = parseDecimal(group.tax);
    if (
      tax !== undefined &&
      documentTax !== undefined &&
      (documentTax - tax > minorUnit || tax - documentTax > minorUnit)
    ) {
      differ(`vat_breakdown[${at}].tax`, 'BT-117', 'BR-CO-17', documentTax, tax);
    }
    if (taxTotal !== undefined && documentTax !== undefined) taxTotal += documentTax;
  });
  return taxTotal;
}
