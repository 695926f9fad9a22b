import { decimalAmount } from './amount.js';
import { checkBic } from './bic.js';
import { checkRfReference, looksLikeRfReference } from './creditorReference.js';
import { EPC_LIMITS, epcPayload } from './epc.js';
import { checkIban } from './iban.js';
import { issue, payeeName, type Built, type PaymentQrInput, type PaymentQrIssue } from './input.js';
import { isSingleLine } from './singleLine.js';
import { isQrIban } from './swissReference.js';

export interface EpcQr {
  scheme: 'epc';
  payload: string;
  /** Printed beside the code. */
  details: { name: string; iban: string; bic: string | undefined; amount: string; currency: 'EUR'; remittance: string };
}

/**
 * EUR + IBAN → EPC069-12 v002. Amount = balance due; remittance = the RF reference (structured),
 * else the reference as text, else the invoice number. Every value that routes money is checked
 * again here: this input may not have come through PaymentSchema.
 */
export function buildEpcQr(input: PaymentQrInput, iban: string): Built<EpcQr> {
  const issues: PaymentQrIssue[] = [];
  if (input.currency !== 'EUR' || input.digits !== 2)
    issues.push(
      issue('currency', 'qr_currency_unsupported', `the EPC QR code carries EUR only, not ${input.currency}`),
    );
  const checkedIban = checkIban(iban);
  if (!checkedIban.ok) issues.push(issue('payment.iban', 'invalid', checkedIban.reason));
  else if (isQrIban(checkedIban.value))
    issues.push(
      issue('payment.iban', 'invalid', 'is a Swiss QR-IBAN, which takes only QR-bill payments with a QR reference'),
    );
  const bic = input.payment?.bic === undefined ? undefined : checkBic(input.payment.bic);
  if (bic && !bic.ok) issues.push(issue('payment.bic', 'invalid', bic.reason));

  const name = payeeName(input);
  if (name.value.length > EPC_LIMITS.name)
    issues.push(
      issue(
        name.path,
        'qr_text_too_long',
        `must be at most ${EPC_LIMITS.name} characters for the EPC QR code (or give payment.account_name)`,
      ),
    );
  if (!isSingleLine(name.value))
    issues.push(
      issue(name.path, 'qr_text_invalid', 'must be one line for the EPC QR code (or give payment.account_name)'),
    );

  if (input.balanceDueMinor > EPC_LIMITS.maxAmountMinor)
    issues.push(
      issue('balance_due', 'qr_amount_too_large', 'is above 999999999.99, the largest amount of an EPC QR code'),
    );

  const reference = input.payment?.reference;
  let creditorReference: string | undefined;
  let text: string | undefined;
  if (reference !== undefined && looksLikeRfReference(reference)) {
    const rf = checkRfReference(reference);
    if (rf.ok) creditorReference = rf.value;
    else issues.push(issue('payment.reference', 'invalid', rf.reason));
  } else {
    const remittance = reference ?? input.invoiceNumber;
    const path = reference === undefined ? 'invoice_number' : 'payment.reference';
    if (remittance.length > EPC_LIMITS.text)
      issues.push(issue(path, 'qr_text_too_long', `must be at most ${EPC_LIMITS.text} characters for the EPC QR code`));
    if (!isSingleLine(remittance)) issues.push(issue(path, 'qr_text_invalid', 'must be one line for the EPC QR code'));
    text = remittance;
  }
  if (issues.length > 0 || !checkedIban.ok) return { ok: false, issues };

  const amount = decimalAmount(input.balanceDueMinor, 2);
  const payload = epcPayload({
    bic: bic?.ok ? bic.value : undefined,
    name: name.value,
    iban: checkedIban.value,
    amount,
    creditorReference,
    text,
  });
  if (new TextEncoder().encode(payload).length > EPC_LIMITS.payloadBytes) {
    return {
      ok: false,
      issues: [
        issue(
          'payment',
          'qr_payload_too_long',
          `makes an EPC QR payload above ${EPC_LIMITS.payloadBytes} bytes: shorten payment.account_name or payment.reference`,
        ),
      ],
    };
  }
  return {
    ok: true,
    value: {
      scheme: 'epc',
      payload,
      details: {
        name: name.value,
        iban: checkedIban.value,
        bic: bic?.ok ? bic.value : undefined,
        amount,
        currency: 'EUR',
        remittance: (creditorReference ?? text)!,
      },
    },
  };
}
