import { buildEpcQr, type EpcQr } from './epcQr.js';
import { issue, type Built, type PaymentQrInput, type PaymentQrIssue } from './input.js';
import { buildPixQr, type PixQr } from './pixQr.js';
import { buildSwissQr, hasStructuredAddress, type SwissQr } from './swissQr.js';
import { buildUpiQr, type UpiQr } from './upiQr.js';
import { buildUsdcQr, type UsdcQr } from './usdcQr.js';

export type PaymentQr = EpcQr | SwissQr | PixQr | UpiQr | UsdcQr;

export type PaymentQrChoice =
  | { kind: 'qr'; qr: PaymentQr }
  /** qr: none; no payment object; nothing left to pay; or no scheme fits the currency and data. */
  | { kind: 'none'; reason: 'qr_none' | 'no_payment' | 'nothing_due' | 'no_scheme' }
  /** The data asks for a code that cannot be made correctly: a 400, never a wrong code. */
  | { kind: 'invalid'; issues: PaymentQrIssue[] };

function chosen(built: Built<PaymentQr>): PaymentQrChoice {
  return built.ok ? { kind: 'qr', qr: built.value } : { kind: 'invalid', issues: built.issues };
}

/**
 * `qr: auto`: the invoice currency and the payment data present pick one scheme.
 *  - EUR + iban → EPC069-12 (a EUR payer is most likely in the euro area, whose banking apps read
 *    EPC codes, even when the IBAN is Swiss); EUR + qr_iban without iban → Swiss QR-bill.
 *  - CHF + qr_iban, or CHF + CH/LI iban with a structured seller address → Swiss QR-bill.
 *  - BRL + pix_key → PIX; INR + upi_vpa → UPI; USD + evm_address → EIP-681 USDC on Base.
 * Data meant for a scheme that cannot carry the invoice's currency (a pix_key on a EUR invoice
 * with no other scheme) is an issue, not silently dropped; an iban alone on, say, a GBP invoice is
 * just printed as bank details (no code). A balance due of 0 prints no code.
 */
export function choosePaymentQr(input: PaymentQrInput): PaymentQrChoice {
  const payment = input.payment;
  if (!payment) return { kind: 'none', reason: 'no_payment' };
  if (payment.qr === 'none') return { kind: 'none', reason: 'qr_none' };
  if (input.balanceDueMinor <= 0n) return { kind: 'none', reason: 'nothing_due' };

  switch (input.currency) {
    case 'EUR':
      if (payment.iban !== undefined) return chosen(buildEpcQr(input, payment.iban));
      if (payment.qr_iban !== undefined) return chosen(buildSwissQr(input));
      break;
    case 'CHF':
      if (payment.qr_iban !== undefined) return chosen(buildSwissQr(input));
      if (payment.iban !== undefined && /^(CH|LI)/i.test(payment.iban)) {
        // A Swiss reference asks for the QR-bill: its missing address is then an issue, not a silent "no code".
        if (hasStructuredAddress(input.seller) || payment.qr_reference !== undefined)
          return chosen(buildSwissQr(input));
      }
      break;
    case 'BRL':
      if (payment.pix_key !== undefined) return chosen(buildPixQr(input, payment.pix_key));
      break;
    case 'INR':
      if (payment.upi_vpa !== undefined) return chosen(buildUpiQr(input, payment.upi_vpa));
      break;
    case 'USD':
      if (payment.evm_address !== undefined) return chosen(buildUsdcQr(input, payment.evm_address));
      break;
  }

  const issues: PaymentQrIssue[] = [];
  const needs = (field: keyof typeof payment, currencies: string, scheme: string) =>
    payment[field] !== undefined &&
    issues.push(
      issue(
        `payment.${field}`,
        'qr_currency_unsupported',
        `is for ${scheme}, which needs an invoice in ${currencies}; this one is in ${input.currency} (or set payment.qr to none)`,
      ),
    );
  needs('qr_iban', 'CHF or EUR', 'the Swiss QR-bill');
  needs('qr_reference', 'CHF or EUR', 'the Swiss QR-bill');
  needs('pix_key', 'BRL', 'a PIX code');
  needs('upi_vpa', 'INR', 'a UPI link');
  needs('evm_address', 'USD', 'a USDC payment link');
  return issues.length > 0 ? { kind: 'invalid', issues } : { kind: 'none', reason: 'no_scheme' };
}
