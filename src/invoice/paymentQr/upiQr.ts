import { decimalAmount } from './amount.js';
import { issue, payeeName, type Built, type PaymentQrInput, type PaymentQrIssue } from './input.js';
import { upiPayload } from './upi.js';
import { checkUpiVpa } from './upiVpa.js';

export interface UpiQr {
  scheme: 'upi';
  payload: string;
  details: { vpa: string; name: string; amount: string; currency: 'INR'; note: string };
}

/** INR + upi_vpa → upi://pay with the balance due; the note is the reference or the invoice number. */
export function buildUpiQr(input: PaymentQrInput, vpa: string): Built<UpiQr> {
  const issues: PaymentQrIssue[] = [];
  if (input.currency !== 'INR' || input.digits !== 2)
    issues.push(issue('currency', 'qr_currency_unsupported', `a UPI link carries INR only, not ${input.currency}`));
  const checked = checkUpiVpa(vpa);
  if (!checked.ok) issues.push(issue('payment.upi_vpa', 'invalid', checked.reason));
  if (issues.length > 0 || !checked.ok) return { ok: false, issues };
  const amount = decimalAmount(input.balanceDueMinor, 2);
  const name = payeeName(input).value;
  const note = input.payment?.reference ?? input.invoiceNumber;
  return {
    ok: true,
    value: {
      scheme: 'upi',
      payload: upiPayload({ vpa: checked.value, name, amount, note }),
      details: { vpa: checked.value, name, amount, currency: 'INR', note },
    },
  };
}
