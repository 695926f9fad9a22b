/**
 * EN 16931 VAT category codes (UNTDID 5305 subset) that an invoice line may carry
 * (docs/invoice.md, the real-world invoice). S is the only category with a rate above 0.
 */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** Categories whose invoices state why no VAT is charged (the exemption reason is printed). */
export const EXEMPT_CATEGORIES: ReadonlySet<VatCategory> = new Set(['E', 'AE', 'K', 'G', 'O']);

/** The category a line gets when it names none: standard when taxed, zero rated otherwise. */
export function defaultCategory(rateIsPositive: boolean): VatCategory {
  return rateIsPositive ? 'S' : 'Z';
}

/** Whether a category agrees with its rate: S needs a rate above 0, every other exactly 0. */
export function categoryFitsRate(category: VatCategory, rateIsPositive: boolean): boolean {
  return category === 'S' ? rateIsPositive : !rateIsPositive;
}
