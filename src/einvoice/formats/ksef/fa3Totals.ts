import {
  TOTAL_KEYS,
  type TotalDifference,
  type TotalKey,
  type TotalsComparison,
} from '../../../invoice/inboundInvoice.js';
import { divide, microsToText, HUNDRED, multiply, parseDecimal, roundTo } from '../../inbound/decimalText.js';
import type { Reader } from '../../inbound/reader.js';
import type { XNode } from '../../../xml/xmlTree.js';

/**
 * A received FA(3) judged by FA(3)'s own arithmetic (the element descriptions of the ministry's
 * schema, ../shared/einvoice/ksef/xsd/schemat_FA(3)_v1-0E.xsd, and the VAT act articles they cite),
 * not by EN 16931's BR-CO recomputation, which FA(3) constructs do not follow:
 * - a line is priced net (P_9A, P_11) or gross (P_9B, P_11A, art. 106e ust. 7 i 8); a line may
 *   carry no value at all (art. 106e ust. 2, 3, 5), and then nothing is recomputed from lines;
 * - P_13_x / P_14_x hold the lines' sums per rate only for VAT, KOR and the like: an advance (ZAL),
 *   a settlement (ROZ) and their corrections state the advance or the remainder, which the lines
 *   (the whole order) do not give; a simplified invoice (UPR) may state P_15 alone;
 * - P_14_x is P_13_x at the slot's rate, or for a gross line the VAT the gross amount contains
 *   (gross × rate ÷ (100 + rate), art. 106f ust. 1 pkt 3 for an advance), a grosz either way;
 * - P_15 is the sum of P_13_x and P_14_x; DoZaplaty is P_15 + SumaObciazen − SumaOdliczen.
 * A grosz of difference is allowed where FA(3) lets each amount be rounded on its own (VAT per rate,
 * a gross total rounded from gross prices: the ministry's example 1 states P_15 2051 for 2050.99).
 */

const GROSZ = 10_000n;

/** The P_13_x / P_14_x slots: the rates a slot may hold (none: the rate is not stated, or the slot bears no VAT). */
const SLOTS: { slot: string; rates: string[]; taxed: boolean; codes: string[] }[] = [
  { slot: '1', rates: ['23', '22'], taxed: true, codes: ['23', '22'] },
  { slot: '2', rates: ['8', '7'], taxed: true, codes: ['8', '7'] },
  { slot: '3', rates: ['5'], taxed: true, codes: ['5'] },
  { slot: '4', rates: ['4', '3'], taxed: true, codes: ['4', '3'] },
  { slot: '5', rates: [], taxed: true, codes: [] },
  { slot: '6_1', rates: [], taxed: false, codes: ['0 KR'] },
  { slot: '6_2', rates: [], taxed: false, codes: ['0 WDT'] },
  { slot: '6_3', rates: [], taxed: false, codes: ['0 EX'] },
  { slot: '7', rates: [], taxed: false, codes: ['zw'] },
  { slot: '8', rates: [], taxed: false, codes: ['np I'] },
  { slot: '9', rates: [], taxed: false, codes: ['np II'] },
  { slot: '10', rates: [], taxed: false, codes: ['oo'] },
  { slot: '11', rates: [], taxed: false, codes: [] },
];

/** Kinds whose P_13_x are the lines' sums (a correction: after less before, StanPrzed). */
const LINE_SUM_KINDS = new Set(['VAT', 'KOR']);

interface LineValue {
  slot: string | undefined;
  net: bigint | undefined;
  gross: bigint | undefined;
  vat: bigint | undefined;
}

const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
const abs = (value: bigint) => (value < 0n ? -value : value);
const vatOf = (amount: bigint, rate: string) => roundTo(divide(multiply(amount, parseDecimal(rate)!), HUNDRED), 2);
const vatInGross = (gross: bigint, rate: string) =>
  roundTo(divide(multiply(gross, parseDecimal(rate)!), HUNDRED + parseDecimal(rate)!), 2);

function slotOfLine(code: string | undefined, margin: boolean): string | undefined {
  if (code === undefined) return margin ? '11' : undefined;
  return SLOTS.find((slot) => slot.codes.includes(code))?.slot;
}

export function compareFa3Totals(r: Reader, fa: XNode | undefined): TotalsComparison {
  const differences: TotalDifference[] = [];
  // A line's value has no rule of its own (like EN 16931's BT-131): code line_net, shown, not a broken rule.
  const differ = (field: string, element: string, stated: bigint, recomputed: bigint, tolerance = 0n) => {
    const rounded = roundTo(recomputed, 2);
    if (abs(stated - rounded) > tolerance) {
      differences.push({
        field,
        bt: element,
        rule: field.startsWith('lines[') ? 'line_net' : `fa3_${element.toLowerCase()}`,
        document: microsToText(stated),
        recomputed: microsToText(rounded),
        difference: microsToText(stated - rounded),
      });
    }
  };
  const amount = (from: XNode | undefined, name: string) => parseDecimal(r.text(from, name));
  const kind = r.text(fa, 'RodzajFaktury') ?? '';
  const margin = r.node(fa, 'Adnotacje', 'PMarzy', 'P_PMarzy') !== undefined;

  const lines = r.all(fa, 'FaWiersz').map((line, at): LineValue => {
    const sign = r.text(line, 'StanPrzed') === '1' ? -1n : 1n;
    const net = amount(line, 'P_11');
    const gross = amount(line, 'P_11A');
    checkLineValue(r, line, at, differ);
    return {
      slot: slotOfLine(r.text(line, 'P_12'), margin),
      net: net === undefined ? undefined : sign * net,
      gross: gross === undefined ? undefined : sign * gross,
      vat: amount(line, 'P_11Vat') === undefined ? undefined : sign * amount(line, 'P_11Vat')!,
    };
  });
  const fromLines =
    LINE_SUM_KINDS.has(kind) &&
    lines.length > 0 &&
    lines.every((line) => line.slot !== undefined && (line.net !== undefined || line.gross !== undefined));

  let basisTotal: bigint | undefined;
  let taxTotal: bigint | undefined;
  for (const { slot, rates, taxed } of SLOTS) {
    const basis = amount(fa, `P_13_${slot}`);
    const tax = taxed ? amount(fa, `P_14_${slot}`) : undefined;
    if (basis === undefined && tax === undefined) continue;
    basisTotal = (basisTotal ?? 0n) + (basis ?? 0n);
    if (taxed) taxTotal = (taxTotal ?? 0n) + (tax ?? 0n);
    const own = lines.filter((line) => line.slot === slot);
    const rate =
      rates.find(
        (candidate) => basis !== undefined && tax !== undefined && abs(vatOf(basis, candidate) - tax) <= GROSZ,
      ) ?? rates[0];
    if (fromLines && basis !== undefined) {
      const expected = slotFromLines(own, rate);
      differ(`P_13_${slot}`, `P_13_${slot}`, basis, expected.basis, expected.tolerance);
      if (tax !== undefined && expected.tax !== undefined) {
        differ(`P_14_${slot}`, `P_14_${slot}`, tax, expected.tax, expected.tolerance);
      }
    } else if (basis !== undefined && tax !== undefined && rate !== undefined) {
      differ(`P_14_${slot}`, `P_14_${slot}`, tax, vatOf(basis, rate), GROSZ);
    }
  }

  const grandTotal = amount(fa, 'P_15');
  const recomputedGrand = basisTotal === undefined ? undefined : basisTotal + (taxTotal ?? 0n);
  if (grandTotal !== undefined && recomputedGrand !== undefined)
    differ('grand_total', 'P_15', grandTotal, recomputedGrand, GROSZ);
  const settlement = r.node(fa, 'Rozliczenie');
  const due = amount(settlement, 'DoZaplaty');
  const recomputedDue =
    grandTotal === undefined
      ? undefined
      : grandTotal + (amount(settlement, 'SumaObciazen') ?? 0n) - (amount(settlement, 'SumaOdliczen') ?? 0n);
  if (due !== undefined && recomputedDue !== undefined) differ('due_payable', 'DoZaplaty', due, recomputedDue);

  const document: Partial<Record<TotalKey, bigint | undefined>> = {
    tax_basis: basisTotal,
    tax_total: taxTotal,
    grand_total: grandTotal,
    due_payable: due ?? undefined,
  };
  const recomputed: Partial<Record<TotalKey, bigint | undefined>> = {
    line_total: fromLines ? sum(lines.map((line) => line.net ?? 0n)) : undefined,
    tax_basis: basisTotal,
    tax_total: taxTotal,
    grand_total: recomputedGrand,
    due_payable: due === undefined ? undefined : recomputedDue,
  };
  const text = (values: Partial<Record<TotalKey, bigint | undefined>>) =>
    Object.fromEntries(
      TOTAL_KEYS.map((key) => [key, values[key] === undefined ? null : microsToText(values[key]!)]),
    ) as Record<TotalKey, string | null>;
  return { document: text(document), recomputed: text(recomputed), differences };
}

/** A slot's P_13 / P_14 from its lines: net lines add up, gross lines contain their VAT; a grosz per line of rounding. */
function slotFromLines(
  lines: LineValue[],
  rate: string | undefined,
): { basis: bigint; tax: bigint | undefined; tolerance: bigint } {
  const net = sum(lines.filter((line) => line.gross === undefined || line.net !== undefined).map((line) => line.net!));
  const gross = sum(lines.filter((line) => line.net === undefined).map((line) => line.gross!));
  const statedVat = lines.every((line) => line.vat !== undefined) && lines.length > 0;
  const grossVat = rate === undefined ? 0n : vatInGross(gross, rate);
  const tax = statedVat
    ? sum(lines.map((line) => line.vat!))
    : rate === undefined
      ? undefined
      : vatOf(net, rate) + grossVat;
  return {
    basis: net + gross - grossVat,
    tax,
    tolerance: gross === 0n && !statedVat ? GROSZ : GROSZ * BigInt(lines.length),
  };
}

/**
 * A line's value against its quantity and price: P_11 = P_8B × P_9A less the discount P_10, P_11A the
 * same from P_9B. FA(3) does not say whether P_10 is per unit or for the line (the ministry's
 * example 4 takes it per unit), so either reading is accepted. A line without quantity or price is not recomputed.
 */
function checkLineValue(
  r: Reader,
  line: XNode,
  at: number,
  differ: (field: string, element: string, stated: bigint, recomputed: bigint) => void,
): void {
  const quantity = parseDecimal(r.text(line, 'P_8B'));
  const discount = parseDecimal(r.text(line, 'P_10')) ?? 0n;
  for (const [priceName, valueName] of [
    ['P_9A', 'P_11'],
    ['P_9B', 'P_11A'],
  ] as const) {
    const price = parseDecimal(r.text(line, priceName));
    const value = parseDecimal(r.text(line, valueName));
    if (quantity === undefined || price === undefined || value === undefined) continue;
    const perLine = roundTo(multiply(quantity, price), 2) - discount;
    const perUnit = roundTo(multiply(quantity, price - discount), 2);
    const closest = abs(value - perUnit) < abs(value - perLine) ? perUnit : perLine;
    differ(`lines[${at}].net`, valueName, value, closest);
  }
}
