import { decimalFromNumber, type Decimal } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { minorToDecimal } from '../../../invoice/money.js';
import { divideRounded, scaleRounded } from '../../../invoice/rounding.js';
import type { KsefFields, RateCode } from './ksefFields.js';
import { rateCodeOf, SLOTS, slotOf, TAXED_SLOTS, type Slot } from './rateCodes.js';

/**
 * The amounts an FA(3) carries, in bigint minor units of the invoice currency, computed once from
 * the invoice's own totals (src/invoice/totals.ts) so the XML and validate never disagree:
 * P_13_x the net and P_14_x the VAT of each rate (the VAT of a rate is its VAT group's, rounded once
 * per group as every route does), P_14_xW that VAT in PLN at the exchange rate, P_15 the total.
 * A ZAL invoice's lines are the order; its amounts are the advance received, shared among the
 * order's rates in proportion to their gross (largest share last, so they add up to P_15) with the
 * VAT contained in each share (gross × rate / (100 + rate)). A KOR with document_type credit_note is
 * a decrease: every amount negative.
 */
interface Fa3SlotAmount {
  slot: Slot;
  net: bigint;
  /** P_14_x for the taxed slots 1-4, else undefined. */
  tax: bigint | undefined;
  /** P_14_xW: the VAT in PLN grosze, for a foreign-currency invoice. */
  taxPln: bigint | undefined;
}

export interface Fa3Amounts {
  digits: number;
  /** -1n for a decrease (KOR with document_type credit_note). */
  sign: 1n | -1n;
  slots: Fa3SlotAmount[];
  /** P_15. */
  total: bigint;
}

interface Bucket {
  slot: Slot;
  rate: Decimal | undefined;
  net: bigint;
  tax: bigint;
}

/** lineCodes[i] is line i's P_12 (undefined: the margin scheme, slot 11). */
export function computeFa3Amounts(
  prepared: PreparedInvoice,
  ksef: KsefFields,
  lineCodes: readonly (RateCode | undefined)[],
): Fa3Amounts {
  const { invoice, totals } = prepared;
  const sign = ksef.kind === 'KOR' && invoice.document_type === 'credit_note' ? -1n : 1n;
  let buckets = orderBuckets(prepared, lineCodes);
  let total = totals.total;
  if (ksef.kind === 'ZAL' && ksef.advance) {
    const advance = decimalFromNumber(ksef.advance.amount);
    total = scaleRounded(advance.coefficient, advance.scale, totals.digits);
    buckets = shareAdvance(buckets, total);
  }
  const rate = ksef.exchange_rate === undefined ? undefined : decimalFromNumber(ksef.exchange_rate);
  const slots = SLOTS.flatMap((slot): Fa3SlotAmount[] => {
    const inSlot = buckets.filter((bucket) => bucket.slot === slot);
    if (inSlot.length === 0) return [];
    const net = inSlot.reduce((sum, bucket) => sum + bucket.net, 0n) * sign;
    const tax = TAXED_SLOTS.has(slot) ? inSlot.reduce((sum, bucket) => sum + bucket.tax, 0n) * sign : undefined;
    const taxPln = tax === undefined || rate === undefined ? undefined : toPln(tax, totals.digits, rate);
    return [{ slot, net, tax, taxPln }];
  });
  return { digits: totals.digits, sign, slots, total: total * sign };
}

/** round(amount × rate) in grosze, amount in minor units of a currency with `digits` digits. */
function toPln(amountMinor: bigint, digits: number, rate: Decimal): bigint {
  return divideRounded(amountMinor * rate.coefficient * 10n ** BigInt(2 - digits), 10n ** BigInt(rate.scale));
}

/** The order's nets and VAT per slot: taxed slots by VAT group (their VAT as computed), the others by line. */
function orderBuckets(prepared: PreparedInvoice, lineCodes: readonly (RateCode | undefined)[]): Bucket[] {
  const { totals } = prepared;
  const buckets: Bucket[] = [];
  for (const group of totals.groups) {
    if (group.category !== 'S') continue;
    const code = rateCodeOf('S', group.rate, undefined);
    if (code === undefined) continue;
    buckets.push({ slot: slotOf(code), rate: group.rate, net: group.taxable, tax: group.tax });
  }
  totals.lineTax.forEach((line, at) => {
    if (line.category === 'S') return;
    const code = lineCodes[at];
    const slot: Slot = code === undefined ? '11' : slotOf(code);
    const existing = buckets.find((bucket) => bucket.slot === slot && bucket.rate === undefined);
    const amount = totals.lineAmounts[at] ?? 0n;
    if (existing) existing.net += amount;
    else buckets.push({ slot, rate: undefined, net: amount, tax: 0n });
  });
  return buckets;
}

/** The advance shared among the buckets by their gross; the last takes what rounding leaves. */
function shareAdvance(buckets: Bucket[], advance: bigint): Bucket[] {
  const gross = buckets.map((bucket) => bucket.net + bucket.tax);
  const orderGross = gross.reduce((sum, value) => sum + value, 0n);
  let given = 0n;
  return buckets.map((bucket, at) => {
    const share =
      at === buckets.length - 1 || orderGross === 0n
        ? advance - given
        : divideRounded(advance * gross[at]!, orderGross);
    given += share;
    if (!bucket.rate) return { ...bucket, net: share, tax: 0n };
    const { coefficient, scale } = bucket.rate;
    const tax = divideRounded(share * coefficient, 100n * 10n ** BigInt(scale) + coefficient);
    return { ...bucket, net: share - tax, tax };
  });
}

/** The amounts by their FA(3) element names, as written (validate answers them beside its totals). */
export function fa3AmountFields(amounts: Fa3Amounts): Record<string, string> {
  const text = (minor: bigint, digits = amounts.digits) => minorToDecimal(minor, digits);
  const fields: Record<string, string> = {};
  for (const { slot, net, tax, taxPln } of amounts.slots) {
    fields[`P_13_${slot}`] = text(net);
    if (tax !== undefined) fields[`P_14_${slot}`] = text(tax);
    if (taxPln !== undefined) fields[`P_14_${slot}W`] = text(taxPln, 2);
  }
  fields.P_15 = text(amounts.total);
  return fields;
}
