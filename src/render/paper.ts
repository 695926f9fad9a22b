import type { CurrencyCode } from '../invoice/currencies.js';
import { ENVELOPES, type EnvelopeName } from '../invoice/envelopes.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';

/** The PAPER_SIZE values (and the preview's paper switch): auto picks by currency. */
export const PAPER_SETTINGS = ['auto', 'A4', 'Letter'] as const;
export type PaperSetting = (typeof PAPER_SETTINGS)[number];
export type PaperFormat = Exclude<PaperSetting, 'auto'>;

// docs/invoice.md: Letter where the currency's home market prints on Letter, A4 everywhere else.
const LETTER_CURRENCIES: ReadonlySet<CurrencyCode> = new Set(['USD', 'CAD', 'MXN']);

export function paperFor(currency: CurrencyCode, setting: PaperSetting): PaperFormat {
  if (setting !== 'auto') return setting;
  return LETTER_CURRENCIES.has(currency) ? 'Letter' : 'A4';
}

/**
 * The paper an invoice prints on: the Swiss QR-bill's payment part is defined on A4 (its page is
 * 297 mm tall in qr-bill.css), so an invoice carrying one is A4 whatever the setting; a window
 * envelope prints on its own paper; otherwise paperFor.
 */
export function paperOf(
  prepared: Pick<PreparedInvoice, 'totals' | 'paymentQr'> & { invoice?: { envelope?: EnvelopeName | undefined } },
  setting: PaperSetting,
): PaperFormat {
  // A window envelope fixes the paper (us-10: Letter); prepareInvoice refused it with a QR-bill.
  const envelope = prepared.invoice?.envelope;
  if (envelope !== undefined) return ENVELOPES[envelope].paper;
  return prepared.paymentQr?.scheme === 'swiss' ? 'A4' : paperFor(prepared.totals.currency, setting);
}
