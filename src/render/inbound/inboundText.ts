import { minorDigitsOf } from '../../invoice/currencies.js';
import type { LabelCatalog } from '../../invoice/labelKeys.js';
import { formatDate, formatPercent } from '../../invoice/localeFormat.js';
import { directionOf, parseLocaleTag, type InvoiceLocale } from '../../invoice/locales.js';
import type { LabelCatalogs } from '../labelCatalogs.js';
import { textLanguage } from '../textLanguage.js';
import type { TextView } from '../invoiceView.js';
import { formatAmount, trimComputed } from './amountText.js';

/**
 * The formatters every section builder of an inbound page shares: the reader's locale and words,
 * and the document's values (amounts, rates, dates, free text) as display strings in them.
 */
export interface InboundText {
  locale: InvoiceLocale;
  labels: LabelCatalog;
  /** The `lang` of a piece of the document's own text (CJK script tells more than the locale). */
  userLang: (text: string) => string;
  /** An amount of the document in its currency, with at least that currency's decimals. */
  amount: (text: string | undefined) => string;
  /** An amount the service recomputed, in the currency's own decimals (amountText.ts trimComputed). */
  computed: (text: string) => string;
  /** An amount in another currency (the tax currency, BT-111), with that currency's decimals. */
  amountIn: (text: string, currency: string) => string;
  percent: (rate: string | undefined) => string;
  date: (iso: string | undefined) => string;
}

function inboundLocale(tag: string | undefined): InvoiceLocale {
  const parsed = tag === undefined ? undefined : parseLocaleTag(tag);
  return parsed
    ? { ...parsed, direction: directionOf(parsed.language), explicit: true }
    : { tag: 'en-GB', language: 'en', direction: 'ltr', explicit: false };
}

export function inboundText(tag: string | undefined, currency: string, catalogs: LabelCatalogs): InboundText {
  const locale = inboundLocale(tag);
  const digits = minorDigitsOf(currency);
  return {
    locale,
    labels: catalogs[locale.language],
    userLang: (text) => textLanguage(text, locale.tag),
    amount: (text) => (text === undefined ? '' : formatAmount(text, locale.tag, digits)),
    computed: (text) => formatAmount(trimComputed(text, digits), locale.tag, digits),
    amountIn: (text, other) => formatAmount(text, locale.tag, minorDigitsOf(other)),
    percent: (rate) => (rate === undefined ? '' : formatPercent(rate, locale)),
    date: (iso) =>
      // A date no calendar has (a UBL 2013-91-02) is shown as sent rather than failing the render.
      iso !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(iso) && !Number.isNaN(Date.parse(iso))
        ? formatDate(iso, locale)
        : (iso ?? ''),
  };
}

export function textOf(text: string, fmt: InboundText): TextView {
  return { lang: fmt.userLang(text), text };
}
