/**
 * The 16 supported currencies (docs/invoice.md). Minor-unit digits come from this table
 * (ISO 4217), never from Intl defaults, so a formatter can never disagree with the maths.
 */
export const CURRENCIES = {
  USD: { digits: 2, locale: 'en-US' },
  EUR: { digits: 2, locale: 'en-IE' },
  GBP: { digits: 2, locale: 'en-GB' },
  JPY: { digits: 0, locale: 'ja-JP' },
  CAD: { digits: 2, locale: 'en-CA' },
  AUD: { digits: 2, locale: 'en-AU' },
  CHF: { digits: 2, locale: 'de-CH' },
  CNY: { digits: 2, locale: 'zh-CN' },
  INR: { digits: 2, locale: 'en-IN' },
  MXN: { digits: 2, locale: 'es-MX' },
  BRL: { digits: 2, locale: 'pt-BR' },
  SGD: { digits: 2, locale: 'en-SG' },
  PLN: { digits: 2, locale: 'pl-PL' },
  // The Peppol PINT markets' own currencies (docs/e-invoices-pint.md).
  NZD: { digits: 2, locale: 'en-NZ' },
  MYR: { digits: 2, locale: 'en-MY' },
  AED: { digits: 2, locale: 'en-AE' },
} as const satisfies Record<string, { digits: number; locale: string }>;

export type CurrencyCode = keyof typeof CURRENCIES;

export const CURRENCY_CODES = Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]];

export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

export function currencyDigits(code: CurrencyCode): number {
  return CURRENCIES[code].digits;
}

/** ISO 4217 minor units other than 2 of currencies a received document may state (not sold in, so not in CURRENCIES). */
const OTHER_MINOR_DIGITS: Readonly<Record<string, number>> = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/** Whether a code is one of the table's (an own property: a document's "constructor" is not). */
export const isCurrencyCode = (code: string): code is CurrencyCode => Object.hasOwn(CURRENCIES, code);

/** The minor-unit digits of any ISO 4217 code, as a received document's amounts are read: 2 when not known otherwise. */
export function minorDigitsOf(code: string): number {
  const trimmed = code.trim();
  if (isCurrencyCode(trimmed)) return currencyDigits(trimmed);
  return Object.hasOwn(OTHER_MINOR_DIGITS, trimmed) ? OTHER_MINOR_DIGITS[trimmed]! : 2;
}
