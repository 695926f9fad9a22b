import { decimalAmount } from './amount.js';
import { checkRfReference, looksLikeRfReference } from './creditorReference.js';
import { checkIban } from './iban.js';
import {
  issue,
  payeeName,
  type Built,
  type PaymentQrInput,
  type PaymentQrIssue,
  type PaymentQrParty,
} from './input.js';
import type { Payment } from './schema.js';
import { isSingleLine } from './singleLine.js';
import { checkQrIban, checkQrReference, isQrIban } from './swissReference.js';
import {
  SWISS_CHARACTERS,
  SWISS_LIMITS,
  swissQrPayload,
  type SwissAddress,
  type SwissQrFields,
} from './swissQrBill.js';

export interface SwissQr {
  scheme: 'swiss';
  payload: string;
  /** What the payment part and receipt print (render/swissQrBillView.ts formats it). */
  fields: SwissQrFields;
  amountMinor: bigint;
}

const COUNTRY = /^[A-Z]{2}$/;

/** A structured address is what type S needs: postal code, town and country (the street is optional). */
export function hasStructuredAddress(party: PaymentQrParty | undefined): boolean {
  return party?.postal_code !== undefined && party.city !== undefined && party.country !== undefined;
}

function swissText(value: string, max: number, path: string, issues: PaymentQrIssue[]): void {
  if (value.length > max)
    issues.push(issue(path, 'qr_text_too_long', `must be at most ${max} characters for the Swiss QR-bill`));
  if (!isSingleLine(value) || !SWISS_CHARACTERS.test(value)) {
    issues.push(
      issue(
        path,
        'qr_text_invalid',
        'must be one line of Latin characters for the Swiss QR-bill (Basic Latin, Latin-1, Latin Extended-A, Ș ș Ț ț €)',
      ),
    );
  }
}

function creditorAddress(input: PaymentQrInput, issues: PaymentQrIssue[]): SwissAddress | undefined {
  const { seller } = input;
  const name = payeeName(input);
  const missing = (['postal_code', 'city', 'country'] as const).filter((key) => seller[key] === undefined);
  for (const key of missing)
    issues.push(
      issue(
        `seller.${key}`,
        'qr_address_incomplete',
        'is required for the Swiss QR-bill (a structured creditor address)',
      ),
    );
  swissText(name.value, SWISS_LIMITS.name, name.path, issues);
  if (seller.street !== undefined) swissText(seller.street, SWISS_LIMITS.street, 'seller.street', issues);
  if (seller.postal_code !== undefined)
    swissText(seller.postal_code, SWISS_LIMITS.postalCode, 'seller.postal_code', issues);
  if (seller.city !== undefined) swissText(seller.city, SWISS_LIMITS.town, 'seller.city', issues);
  if (seller.country !== undefined && !COUNTRY.test(seller.country))
    issues.push(issue('seller.country', 'invalid', 'must be an ISO 3166-1 alpha-2 code for the Swiss QR-bill'));
  if (missing.length > 0) return undefined;
  return {
    name: name.value,
    street: seller.street,
    postalCode: seller.postal_code!,
    town: seller.city!,
    country: seller.country!,
  };
}

/**
 * The buyer as ultimate debtor when their structured address fits the QR-bill; otherwise the
 * debtor stays empty and the slip prints the blank "Payable by (name/address)" box, which is the
 * IG's own answer for an unknown debtor. It never decides where the money goes.
 */
function debtorAddress(buyer: PaymentQrParty | undefined): SwissAddress | undefined {
  if (!buyer || !hasStructuredAddress(buyer) || !COUNTRY.test(buyer.country!)) return undefined;
  const fits = (value: string | undefined, max: number) =>
    value === undefined || (value.length <= max && isSingleLine(value) && SWISS_CHARACTERS.test(value));
  if (
    !fits(buyer.name, SWISS_LIMITS.name) ||
    !fits(buyer.street, SWISS_LIMITS.street) ||
    !fits(buyer.postal_code, SWISS_LIMITS.postalCode) ||
    !fits(buyer.city, SWISS_LIMITS.town)
  )
    return undefined;
  return {
    name: buyer.name,
    street: buyer.street,
    postalCode: buyer.postal_code!,
    town: buyer.city!,
    country: buyer.country!,
  };
}

type Account = { account: string; referenceType: SwissQrFields['referenceType']; reference?: string | undefined };

/**
 * Which account and reference (IG 4.3.2): a QR-IBAN with its QR reference (QRR); else the CH/LI
 * IBAN with an RF reference (SCOR) from qr_reference or reference; else the IBAN without one (NON).
 */
function accountAndReference(input: PaymentQrInput, issues: PaymentQrIssue[]): Account | undefined {
  const payment: Partial<Payment> = input.payment ?? {};
  const swissReference = payment.qr_reference;
  if (payment.qr_iban !== undefined) {
    const qrIban = checkQrIban(payment.qr_iban);
    if (!qrIban.ok) issues.push(issue('payment.qr_iban', 'invalid', qrIban.reason));
    const qrr = swissReference === undefined ? undefined : checkQrReference(swissReference);
    if (!qrr?.ok)
      issues.push(
        issue(
          'payment.qr_reference',
          'invalid',
          qrr?.reason ?? 'is required with qr_iban: a QR-IBAN takes only payments with a QR reference (QRR, 27 digits)',
        ),
      );
    return qrIban.ok && qrr?.ok ? { account: qrIban.value, referenceType: 'QRR', reference: qrr.value } : undefined;
  }
  const iban = payment.iban === undefined ? undefined : checkIban(payment.iban);
  if (!iban?.ok || !/^(CH|LI)/.test(iban.value) || isQrIban(iban.value)) {
    issues.push(
      issue(
        'payment.iban',
        'invalid',
        iban && !iban.ok ? iban.reason : 'must be a CH or LI IBAN (not a QR-IBAN) for a Swiss QR-bill without qr_iban',
      ),
    );
    return undefined;
  }
  if (swissReference !== undefined && !looksLikeRfReference(swissReference)) {
    issues.push(issue('payment.qr_reference', 'invalid', 'is a QR reference (QRR), which needs a QR-IBAN in qr_iban'));
    return undefined;
  }
  const rfSource =
    swissReference ??
    (payment.reference !== undefined && looksLikeRfReference(payment.reference) ? payment.reference : undefined);
  if (rfSource === undefined) return { account: iban.value, referenceType: 'NON' };
  const rf = checkRfReference(rfSource);
  if (!rf.ok) {
    issues.push(
      issue(swissReference === undefined ? 'payment.reference' : 'payment.qr_reference', 'invalid', rf.reason),
    );
    return undefined;
  }
  return { account: iban.value, referenceType: 'SCOR', reference: rf.value };
}

/** CHF or EUR + Swiss data → the Swiss QR Code of the payment part (IG QR-bill v2.3). */
export function buildSwissQr(input: PaymentQrInput): Built<SwissQr> {
  const issues: PaymentQrIssue[] = [];
  if ((input.currency !== 'CHF' && input.currency !== 'EUR') || input.digits !== 2) {
    issues.push(
      issue('currency', 'qr_currency_unsupported', `the Swiss QR-bill carries CHF or EUR only, not ${input.currency}`),
    );
  }
  if (input.balanceDueMinor > SWISS_LIMITS.maxAmountMinor)
    issues.push(
      issue('balance_due', 'qr_amount_too_large', 'is above 999999999.99, the largest amount of a Swiss QR-bill'),
    );
  const account = accountAndReference(input, issues);
  const creditor = creditorAddress(input, issues);
  // The message: a free-text reference, else the invoice number (an RF reference is the structured one).
  const reference = input.payment?.reference;
  const text =
    reference !== undefined && !looksLikeRfReference(reference)
      ? { value: reference, path: 'payment.reference' }
      : { value: input.invoiceNumber, path: 'invoice_number' };
  swissText(text.value, SWISS_LIMITS.message, text.path, issues);
  if (issues.length > 0 || !account || !creditor) return { ok: false, issues };

  const fields: SwissQrFields = {
    account: account.account,
    creditor,
    amount: decimalAmount(input.balanceDueMinor, 2),
    currency: input.currency as 'CHF' | 'EUR',
    debtor: debtorAddress(input.buyer),
    referenceType: account.referenceType,
    reference: account.reference,
    message: text.value,
  };
  const payload = swissQrPayload(fields);
  if (payload.length > SWISS_LIMITS.payloadChars) {
    return {
      ok: false,
      issues: [
        issue(
          'payment',
          'qr_payload_too_long',
          `makes a Swiss QR payload above ${SWISS_LIMITS.payloadChars} characters`,
        ),
      ],
    };
  }
  return { ok: true, value: { scheme: 'swiss', payload, fields, amountMinor: input.balanceDueMinor } };
}
