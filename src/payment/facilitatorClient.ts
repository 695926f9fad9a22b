import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import * as v from 'valibot';

/** Facilitator replies are checked at the boundary: a reply that doesn't fit is a failure, not a yes. */
const VerifyResponseSchema = v.object({
  isValid: v.boolean(),
  invalidReason: v.optional(v.string()),
  invalidMessage: v.optional(v.string()),
  payer: v.optional(v.string()),
});

const SettleResponseSchema = v.object({
  success: v.boolean(),
  transaction: v.optional(v.string(), ''),
  network: v.string(),
  payer: v.optional(v.string()),
  errorReason: v.optional(v.string()),
  errorMessage: v.optional(v.string()),
  amount: v.optional(v.string()),
});

type VerifyResponse = v.InferOutput<typeof VerifyResponseSchema>;
export type SettleResponse = v.InferOutput<typeof SettleResponseSchema>;

/** Why a facilitator call produced no usable answer: unreachable, too slow, or an answer we can't read. */
export class FacilitatorError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'bad_response',
    readonly operation: 'verify' | 'settle',
    message: string,
  ) {
    super(message);
    this.name = 'FacilitatorError';
  }
}

export interface FacilitatorClientOptions {
  url: string;
  timeoutMs: number;
  /** Per-request auth headers (e.g. a CDP bearer JWT); values are never logged. */
  authHeaders?: () => Promise<Record<string, string>> | Record<string, string>;
  /** Observes each call's duration and outcome (metrics). */
  observe?: (operation: 'verify' | 'settle', ms: number, outcome: string) => void;
}

export interface FacilitatorClient {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

export function createFacilitatorClient(options: FacilitatorClientOptions): FacilitatorClient {
  const base = options.url.replace(/\/+$/, '');

  async function call<T>(
    operation: 'verify' | 'settle',
    schema: v.GenericSchema<unknown, T>,
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): Promise<T> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      const headers = { 'content-type': 'application/json', ...(await options.authHeaders?.()) };
      let response: Response;
      try {
        response = await fetch(`${base}/${operation}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirements }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        outcome = timedOut ? 'timeout' : 'unreachable';
        throw new FacilitatorError(
          outcome as 'timeout' | 'unreachable',
          operation,
          `facilitator ${operation} ${timedOut ? `timed out after ${options.timeoutMs} ms` : 'could not be reached'}`,
        );
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        outcome = 'bad_response';
        throw new FacilitatorError(
          'bad_response',
          operation,
          `facilitator ${operation} answered ${response.status} without JSON`,
        );
      }
      // Some facilitators answer a negative verdict with a 4xx and the usual body: the body decides.
      const parsed = v.safeParse(schema, body);
      if (!parsed.success) {
        outcome = 'bad_response';
        throw new FacilitatorError(
          'bad_response',
          operation,
          `facilitator ${operation} answered ${response.status} with an unexpected body`,
        );
      }
      return parsed.output;
    } finally {
      options.observe?.(operation, performance.now() - started, outcome);
    }
  }

  return {
    verify: (payload, requirements) => call('verify', VerifyResponseSchema, payload, requirements),
    settle: (payload, requirements) => call('settle', SettleResponseSchema, payload, requirements),
  };
}
