import type { InvoiceLocale } from './locales.js';

/**
 * Display text of dates, quantities, rates and countries in the invoice's locale, with Intl.
 * Invoices that name no locale keep the formats they always had (they print as
 * before): dates as "2 November 2026", quantities and rates as the exact decimal sent.
 * Decimal values are passed to Intl as strings, which it formats exactly (no float).
 */

// Day month-name year reads the same to US and European customers (02/11 does not).
const ENGLISH_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) {
    // Locale tags come from requests: bounded whatever clients send.
    if (cache.size >= 1000) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

export function formatDate(isoDate: string, locale?: InvoiceLocale): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (!locale?.explicit) return ENGLISH_DATE.format(date);
  return cached(
    `date:${locale.tag}`,
    () => new Intl.DateTimeFormat(locale.tag, { dateStyle: 'long', timeZone: 'UTC' }),
  ).format(date);
}

/** A quantity such as "1.5" → "1,5" (de); unchanged without an explicit locale. */
export function formatQuantity(decimal: string, locale: InvoiceLocale): string {
  if (!locale.explicit) return decimal;
  return cached(`number:${locale.tag}`, () => new Intl.NumberFormat(locale.tag, { maximumFractionDigits: 20 })).format(
    decimal as Intl.StringNumericLiteral,
  );
}

/** A rate in percent such as "7.5" → "7.5%" ("7,5 %" in de). */
export function formatPercent(decimal: string, locale: InvoiceLocale): string {
  if (!locale.explicit) return `${decimal}%`;
  const formatter = cached(
    `percent:${locale.tag}`,
    () => new Intl.NumberFormat(locale.tag, { style: 'percent', maximumFractionDigits: 20 }),
  );
  return formatter.format(shiftDecimal(decimal, -2) as Intl.StringNumericLiteral);
}

/** The country's name in the invoice language ("Deutschland" for DE in German). */
export function countryName(code: string, locale: InvoiceLocale): string {
  const tag = locale.explicit ? locale.tag : 'en';
  return cached(`region:${tag}`, () => new Intl.DisplayNames(tag, { type: 'region' })).of(code) ?? code;
}

/** Moves the decimal point of a plain decimal text: ("7.5", -2) → "0.075". */
function shiftDecimal(decimal: string, places: number): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  const digits = whole + fraction;
  const point = whole.length + places;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits;
  const at = point <= 0 ? 1 : point;
  return `${padded.slice(0, at)}.${padded.slice(at) || '0'}`;
}
