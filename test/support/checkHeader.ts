import { readPaymentSignature } from '../../src/http/paymentSignature.js';
import { decodePayment } from '../../src/payment/paymentPayload.js';
import type { PaymentProcessor } from '../../src/payment/paymentProcessor.js';

/** processor.check on a PAYMENT-SIGNATURE value, decoded as HTTP and the call core decode it (once, before the check). */
export const checkHeader = (
  processor: PaymentProcessor,
  ...[resource, header, fingerprint, admit]: [
    Parameters<PaymentProcessor['check']>[0],
    string | undefined,
    string,
    Parameters<PaymentProcessor['check']>[3]?,
  ]
) =>
  processor.check(
    resource,
    header === undefined ? undefined : decodePayment(readPaymentSignature(header)),
    fingerprint,
    admit,
  );
