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
