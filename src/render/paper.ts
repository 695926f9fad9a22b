import type { CurrencyCode } from '../invoice/currencies.js';

export type PaperSetting = 'auto' | 'A4' | 'Letter';
export type PaperFormat = 'A4' | 'Letter';

// DECISIONS.md: Letter where the currency's home market prints on Letter, A4 everywhere else.
const LETTER_CURRENCIES: ReadonlySet<CurrencyCode> = new Set(['USD', 'CAD', 'MXN']);

export function paperFor(currency: CurrencyCode, setting: PaperSetting): PaperFormat {
  if (setting !== 'auto') return setting;
  return LETTER_CURRENCIES.has(currency) ? 'Letter' : 'A4';
}
