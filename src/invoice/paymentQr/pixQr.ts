import { decimalAmount } from './amount.js';
import { issue, payeeName, type Built, type PaymentQrInput, type PaymentQrIssue } from './input.js';
import { PIX_LIMITS, pixPayload } from './pix.js';
import { checkPixKey, type PixKeyType } from './pixKey.js';

export interface PixQr {
  scheme: 'pix';
  payload: string;
  details: { key: string; keyType: PixKeyType; name: string; city: string; amount: string; currency: 'BRL' };
}

/**
 * Name and city in the BR Code are what the payer's app shows, in plain ASCII as Brazilian banks
 * expect: accents are dropped (São Paulo → Sao Paulo), then the text is cut to the field's length
 * (25 and 15). The key alone decides where the money goes; it is never changed.
 */
function pixText(value: string, max: number): string | undefined {
  const ascii = value.normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim();
  if (!/^[\x20-\x7E]+$/.test(ascii)) return undefined;
  return ascii.slice(0, max).trimEnd();
}

/** BRL + pix_key → a static BR Code with the balance due. */
export function buildPixQr(input: PaymentQrInput, key: string): Built<PixQr> {
  const issues: PaymentQrIssue[] = [];
  if (input.currency !== 'BRL' || input.digits !== 2)
    issues.push(issue('currency', 'qr_currency_unsupported', `a PIX code carries BRL only, not ${input.currency}`));
  const checkedKey = checkPixKey(key);
  if (!checkedKey.ok) issues.push(issue('payment.pix_key', 'invalid', checkedKey.reason));
  if (input.balanceDueMinor > PIX_LIMITS.maxAmountMinor)
    issues.push(
      issue('balance_due', 'qr_amount_too_large', 'is above 9999999999.99, the largest amount of a PIX code'),
    );
  const payee = payeeName(input);
  const name = pixText(payee.value, PIX_LIMITS.name);
  if (name === undefined)
    issues.push(issue(payee.path, 'qr_text_invalid', 'must be in Latin letters for a PIX code (accents are dropped)'));
  const city = input.seller.city === undefined ? undefined : pixText(input.seller.city, PIX_LIMITS.city);
  if (input.seller.city === undefined)
    issues.push(issue('seller.city', 'qr_address_incomplete', 'is required for a PIX code (the merchant city)'));
  else if (city === undefined)
    issues.push(
      issue('seller.city', 'qr_text_invalid', 'must be in Latin letters for a PIX code (accents are dropped)'),
    );
  if (issues.length > 0 || !checkedKey.ok || name === undefined || city === undefined) return { ok: false, issues };

  const amount = decimalAmount(input.balanceDueMinor, 2);
  // The transaction id allows letters and digits only: the invoice number without the rest.
  const txid = input.invoiceNumber.replace(/[^A-Za-z0-9]/g, '').slice(0, PIX_LIMITS.txid) || '***';
  const payload = pixPayload({ key: checkedKey.value.value, amount, name, city, txid });
  return {
    ok: true,
    value: {
      scheme: 'pix',
      payload,
      details: { key: checkedKey.value.value, keyType: checkedKey.value.type, name, city, amount, currency: 'BRL' },
    },
  };
}
