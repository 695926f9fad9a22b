import { CURRENCIES, type CurrencyCode } from './currencies.js';

/** How every amount leaves the service: integer minor units, exact decimal text, display text. */
export interface Money {
  minor: number;
  decimal: string;
  formatted: string;
}

/** Largest minor amount we answer as a JSON integer without precision loss (2^53 − 1). */
export const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** Exact decimal text of a minor amount: 123450n, 2 → "1234.50"; JPY (0 digits) → "1234". */
export function minorToDecimal(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return (negative ? '-' : '') + whole + (digits > 0 ? `.${fraction}` : '');
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Exact decimal text as display text in a currency ("1234.50" → "$1,234.50"), with a fixed number
 * of fraction digits. Intl accepts decimal strings and formats them without going through a
 * float, so large amounts stay exact.
 */
export function formatCurrency(
  decimal: string,
  currency: CurrencyCode,
  fractionDigits: number,
  locale: string = CURRENCIES[currency].locale,
): string {
  const key = `${locale}:${currency}:${fractionDigits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    // Locales come from requests: keep the cache bounded whatever tags clients send.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter.format(decimal as Intl.StringNumericLiteral);
}

/** `locale`: the invoice's formatting locale; the currency's own (currencies.ts) by default. */
export function toMoney(minor: bigint, currency: CurrencyCode, locale?: string): Money {
  const digits = CURRENCIES[currency].digits;
  const decimal = minorToDecimal(minor, digits);
  return { minor: Number(minor), decimal, formatted: formatCurrency(decimal, currency, digits, locale) };
}
