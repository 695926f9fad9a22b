import { CURRENCIES, type CurrencyCode } from './currencies.js';

/**
 * The invoice languages (docs/invoice.md, Languages): a `locale` is a BCP 47 tag whose
 * language is one of these; its region (and script) are kept for Intl's number, date and country
 * formats (`de-CH` prints `CHF 1’234.50`). Each language has a label catalog,
 * templates/locales/<language>.json.
 */
export const LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
  'pl',
  'sv',
  'hr',
  'ja',
  'zh',
  'ar',
  'he',
  'hi',
] as const;
export type Language = (typeof LANGUAGES)[number];

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar', 'he']);

/** The writing direction of a language's labels. */
export const directionOf = (language: Language): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr');

export interface InvoiceLocale {
  /** Canonical BCP 47 tag, e.g. "de-DE", "zh-Hans-CN". */
  tag: string;
  language: Language;
  direction: 'ltr' | 'rtl';
  /**
   * False when the request named no locale and the currency's locale stands in: such invoices
   * print exactly as they did before locales existed (English labels, "2 November 2026" dates).
   */
  explicit: boolean;
}

/** The canonical tag when `tag` is a well-formed BCP 47 tag of a supported language, else undefined. */
export function parseLocaleTag(tag: string): { tag: string; language: Language } | undefined {
  let canonical: string;
  try {
    [canonical = ''] = Intl.getCanonicalLocales(tag);
  } catch {
    return undefined;
  }
  const language = new Intl.Locale(canonical).language;
  return isLanguage(language) ? { tag: canonical, language } : undefined;
}

function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** The invoice's locale: the one it names (already validated by the schema), or its currency's. */
export function invoiceLocale(requested: string | undefined, currency: CurrencyCode): InvoiceLocale {
  const parsed = requested === undefined ? undefined : parseLocaleTag(requested);
  if (parsed) return { ...parsed, direction: directionOf(parsed.language), explicit: true };
  // The currencies' own locales (currencies.ts: en-US, ja-JP, de-CH, …) keep English labels: before
  // locales existed every invoice was English, whatever its currency.
  return { tag: CURRENCIES[currency].locale, language: 'en', direction: 'ltr', explicit: false };
}
