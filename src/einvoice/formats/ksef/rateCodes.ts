import { decimalToString, type Decimal } from '../../../invoice/decimal.js';
import type { VatCategory } from '../../../invoice/vatCategories.js';
import type { RateCode } from './ksefFields.js';

/**
 * From the invoice's VAT categories and rates to FA(3)'s rate codes (P_12) and the totals they are
 * summed into (P_13_x net, P_14_x VAT). Categories map one to one (Z 0 KR domestic zero rate,
 * K 0 WDT intra-EU supply, G 0 EX export, E zw exempt, AE oo domestic reverse charge, O np I not
 * taxable in Poland); a standard-rated line's code is its rate, one of FA(3)'s.
 */
const STANDARD_RATE_CODES: readonly RateCode[] = ['23', '22', '8', '7', '5', '4', '3'];

const CATEGORY_CODES: Record<Exclude<VatCategory, 'S'>, RateCode> = {
  Z: '0 KR',
  K: '0 WDT',
  G: '0 EX',
  E: 'zw',
  AE: 'oo',
  O: 'np I',
};

/** The P_13_x / P_14_x suffix each code's amounts are summed into; "11" is the margin scheme (no code). */
export const SLOTS = ['1', '2', '3', '4', '6_1', '6_2', '6_3', '7', '8', '9', '10', '11'] as const;
export type Slot = (typeof SLOTS)[number];

const CODE_SLOTS: Record<RateCode, Slot> = {
  '23': '1',
  '22': '1',
  '8': '2',
  '7': '2',
  '5': '3',
  '4': '4',
  '3': '4',
  '0 KR': '6_1',
  '0 WDT': '6_2',
  '0 EX': '6_3',
  zw: '7',
  'np I': '8',
  'np II': '9',
  oo: '10',
};

/** Slots whose VAT is written (P_14_1…4); the others have a net only. */
export const TAXED_SLOTS: ReadonlySet<Slot> = new Set(['1', '2', '3', '4']);

export const slotOf = (code: RateCode): Slot => CODE_SLOTS[code];

/** The code of a line, or undefined when its standard rate is not one FA(3) knows. */
export function rateCodeOf(category: VatCategory, rate: Decimal, override: RateCode | undefined): RateCode | undefined {
  if (category !== 'S') return override ?? CATEGORY_CODES[category];
  const text = decimalToString(rate);
  return STANDARD_RATE_CODES.find((code) => code === text);
}

/** A code back to the EN 16931 category and rate the JSON invoice uses (reading an FA(3)). */
export function categoryOfCode(code: string): { category: VatCategory; rate: string } | undefined {
  if ((STANDARD_RATE_CODES as readonly string[]).includes(code)) return { category: 'S', rate: code };
  const entry = Object.entries(CATEGORY_CODES).find(([, value]) => value === code);
  if (entry) return { category: entry[0] as VatCategory, rate: '0' };
  return code === 'np II' ? { category: 'O', rate: '0' } : undefined;
}
