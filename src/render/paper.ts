import type { CurrencyCode } from '../invoice/currencies.js';

/** The PAPER_SIZE values (and the preview's paper switch): auto picks by currency. */
export const PAPER_SETTINGS = ['auto', 'A4', 'Letter'] as const;
export type PaperSetting = (typeof PAPER_SETTINGS)[number];
export type PaperFormat = Exclude<PaperSetting, 'auto'>;

// DECISIONS.md: Letter where the currency's home market prints on Letter, A4 everywhere else.
const LETTER_CURRENCIES: ReadonlySet<CurrencyCode> = new Set(['USD', 'CAD', 'MXN']);

export function paperFor(currency: CurrencyCode, setting: PaperSetting): PaperFormat {
  if (setting !== 'auto') return setting;
  return LETTER_CURRENCIES.has(currency) ? 'Letter' : 'A4';
}
