/** Payment QR codes: the payment schema, the validators and choosePaymentQr. */
export { PaymentSchema, PAYMENT_LIMITS, QR_MODES, type Payment, type PaymentInput } from './schema.js';
export { choosePaymentQr, type PaymentQr, type PaymentQrChoice, type PaymentQrScheme } from './choosePaymentQr.js';
export type { PaymentQrInput, PaymentQrIssue, PaymentQrParty } from './input.js';
export type { EpcQr } from './epcQr.js';
export type { SwissQr } from './swissQr.js';
export type { PixQr } from './pixQr.js';
export type { UpiQr } from './upiQr.js';
export type { UsdcQr } from './usdcQr.js';
export type { SwissAddress, SwissQrFields } from './swissQrBill.js';
export { decimalAmount, groupedAmount } from './amount.js';
export { formatIban } from './iban.js';
export { formatRfReference } from './creditorReference.js';
export { formatQrReference } from './swissReference.js';
