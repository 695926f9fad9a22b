import type { Payment } from './schema.js';

/**
 * What choosePaymentQr needs from an invoice: a plain shape, so that the invoice model can grow
 * without this module knowing it. Amounts are the balance due in minor units, exactly.
 */
export interface PaymentQrParty {
  name: string;
  street?: string | undefined;
  city?: string | undefined;
  postal_code?: string | undefined;
  /** ISO 3166-1 alpha-2. */
  country?: string | undefined;
}

export interface PaymentQrInput {
  /** ISO 4217 code of the invoice. */
  currency: string;
  /** Minor-unit digits of that currency. */
  digits: number;
  /** Total − amount paid, in minor units. */
  balanceDueMinor: bigint;
  invoiceNumber: string;
  payment?: Payment | undefined;
  seller: PaymentQrParty;
  buyer?: PaymentQrParty | undefined;
}

/** Same shape as the API's issues: { path, code, message } with paths like payment.qr_reference. */
export interface PaymentQrIssue {
  path: string;
  code: string;
  message: string;
}

export type Built<T> = { ok: true; value: T } | { ok: false; issues: PaymentQrIssue[] };

export function issue(path: string, code: string, message: string): PaymentQrIssue {
  return { path, code, message };
}

/** The payee name the codes carry: account_name when given, else the seller's name. */
export function payeeName(input: PaymentQrInput): { value: string; path: string } {
  return input.payment?.account_name !== undefined
    ? { value: input.payment.account_name, path: 'payment.account_name' }
    : { value: input.seller.name, path: 'seller.name' };
}
