import { AppError } from '../errors.js';
import { FacilitatorError } from './facilitatorClient.js';

/** The AppErrors of the payment steps (paymentProcessor.ts, settlement.ts, claimedPayment.ts). */
export const paymentReused = () =>
  new AppError(
    'payment_reused',
    'This payment authorization was already used for a different request body. Sign a new one.',
  );

export function facilitatorFailure(error: unknown, operation: string): AppError {
  if (error instanceof FacilitatorError && error.kind === 'timeout') {
    return new AppError(
      'facilitator_timeout',
      `The payment facilitator did not answer the ${operation} in time. Nothing was charged; retry.`,
      { cause: error },
    );
  }
  return new AppError(
    'facilitator_unavailable',
    `The payment facilitator failed during ${operation}. Nothing was charged; retry.`,
    { cause: error },
  );
}

export function settlementUnknown(error: unknown): AppError {
  return new AppError(
    'settlement_unknown',
    'The payment facilitator did not confirm the settlement. Do not sign a new payment: re-send the same request with the same PAYMENT-SIGNATURE to collect the PDF once the settlement is confirmed (nothing is charged twice).',
    { cause: error, timedOut: error instanceof FacilitatorError && error.kind === 'timeout' },
  );
}
