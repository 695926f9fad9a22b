/** Payment QR codes: the payment schema, the validators and choosePaymentQr. */
export { PaymentSchema, type Payment, type PaymentInput } from './schema.js';
export { choosePaymentQr, type PaymentQr, type PaymentQrChoice } from './choosePaymentQr.js';
export type { PaymentQrInput } from './input.js';
export type { SwissQr } from './swissQr.js';
export type { SwissAddress } from './swissQrBill.js';
export { groupedAmount } from './amount.js';
export { formatIban } from './iban.js';
export { formatRfReference } from './creditorReference.js';
export { formatQrReference } from './swissReference.js';
