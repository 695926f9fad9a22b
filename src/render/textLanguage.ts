/**
 * The `lang` attribute for a block of user text. We don't know what language a customer writes
 * in, so the honest answer is "" (unknown, per the HTML spec). The one case where guessing pays
 * is CJK: Han characters are shared by Chinese, Japanese and Korean but drawn differently, and
 * Chromium picks the right Noto Sans CJK variant only when it knows the language (styles map
 * :lang(ja|zh|ko) to fonts). Kana means Japanese and Hangul means Korean for certain; Han alone
 * follows the currency's locale when that is Japanese or Chinese, else Chinese.
 */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /\p{Script=Han}/u;

export function textLanguage(text: string, currencyLocale: string): string {
  if (KANA.test(text)) return 'ja';
  if (HANGUL.test(text)) return 'ko';
  if (!HAN.test(text)) return '';
  if (currencyLocale.startsWith('ja')) return 'ja';
  return 'zh';
}
