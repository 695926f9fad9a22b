import { decodePaymentSignature } from '../../src/payment/paymentHeader.js';
import type { PaymentProcessor } from '../../src/payment/paymentProcessor.js';

/** processor.check on a PAYMENT-SIGNATURE value, decoded as the call core decodes it (once, before the check). */
export const checkHeader = (
  processor: PaymentProcessor,
  ...[resource, header, fingerprint, admit]: [
    Parameters<PaymentProcessor['check']>[0],
    string | undefined,
    string,
    Parameters<PaymentProcessor['check']>[3]?,
  ]
) => processor.check(resource, header === undefined ? undefined : decodePaymentSignature(header), fingerprint, admit);
