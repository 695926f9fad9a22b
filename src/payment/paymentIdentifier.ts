import { PAYMENT_IDENTIFIER, isValidPaymentId } from '@x402/extensions/payment-identifier';
import { AppError } from '../errors.js';
import type { ClaimedPayment, PaymentCheck, PaymentProcessor } from './paymentProcessor.js';
import type { DecodedPayment, ExactAuthorization } from './paymentPayload.js';
import { claimWhenFree, type PaidResult, type PaymentStore } from './paymentStore.js';
import { isPlainEcdsa, signerMismatch } from './signerCheck.js';

/** How long a paid result stays findable by its payment id. */
const ID_TTL_MS = 24 * 60 * 60 * 1000;

/** The client's payment id and signer, read from the decoded payment (the processor checks the rest). */
function identifierOf(
  decoded: DecodedPayment | undefined,
): { id: string; from: string; network: string; authorization: ExactAuthorization; signature: string } | undefined {
  if (!decoded) return undefined;
  const extensions = decoded.payload.extensions as Record<string, { info?: { id?: unknown } } | undefined> | undefined;
  const id = extensions?.[PAYMENT_IDENTIFIER]?.info?.id;
  if (typeof id !== 'string') return undefined;
  if (!isValidPaymentId(id))
    throw new AppError(
      'invalid_payment_header',
      'PAYMENT-SIGNATURE is malformed: the payment-identifier id must be 16–128 characters of a-z, A-Z, 0-9, _ and -.',
    );
  const { authorization } = decoded;
  const { signature } = decoded.payload.payload as { signature: string };
  return {
    id,
    from: authorization.from.toLowerCase(),
    network: decoded.payload.accepted.network,
    authorization,
    signature,
  };
}

/**
 * The payment-identifier extension (an idempotency key the client chooses): a payment carrying an
 * id already paid for with the same body gets that result again, whatever its authorization (a
 * retry signed anew), without a second charge; another body is 409 payment_reused. The id is
 * scoped to the signer and network and held in the same store as the authorizations (Redis across
 * instances): it is claimed while its payment runs, so a concurrent retry waits for it, completed
 * with the result, and released when nothing was paid. A settlement of unknown outcome frees the
 * id: such a payment is collected by re-sending its own signature, not by a new one.
 */
export function withPaymentIdentifier(
  processor: PaymentProcessor,
  store: PaymentStore,
  options: { duplicateWaitMs?: number; now?: () => number } = {},
): PaymentProcessor {
  const now = options.now ?? Date.now;
  const duplicateWaitMs = options.duplicateWaitMs ?? 60_000;

  const claimId = (key: string, expiresAtMs: number) =>
    claimWhenFree(store, key, expiresAtMs, {
      waitMs: duplicateWaitMs,
      now,
      whenStillBusy: () =>
        new AppError(
          'payment_in_progress',
          'A payment with this payment-identifier is being processed. Retry later to collect the result.',
        ),
    });

  return {
    requirements: (resource) => processor.requirements(resource),
    challenge: (resource, error) => processor.challenge(resource, error),
    async check(resource, decoded, fingerprint, admit): Promise<PaymentCheck> {
      const identifier = identifierOf(decoded);
      if (!identifier) return processor.check(resource, decoded, fingerprint, admit);
      const key = `x402:payment-id:${identifier.network}:${identifier.from}:${identifier.id}`;
      const expiresAtMs = now() + ID_TTL_MS;
      const outcome = await claimId(key, expiresAtMs);
      if (outcome.kind === 'done') {
        if (outcome.result.fingerprint !== fingerprint)
          throw new AppError(
            'payment_reused',
            'This payment-identifier was already paid for a different request. Use a new id.',
          );
        // The id is no bearer token: its result goes only to a payload its payer signed, checked
        // locally. A signature that can't be checked here (a smart account's) takes the normal path.
        if (await signedByPayer(identifier, processor.requirements(resource)))
          return { kind: 'replayed', result: outcome.result };
        return processor.check(resource, decoded, fingerprint, admit);
      }
      if (outcome.kind === 'parked') {
        // Ids are never parked; hand it back untouched.
        await store.park(key, outcome.pending, expiresAtMs);
        return processor.check(resource, decoded, fingerprint, admit);
      }
      let check: PaymentCheck;
      try {
        check = await processor.check(resource, decoded, fingerprint, admit);
      } catch (error) {
        await store.release(key);
        throw error;
      }
      const remember = (result: PaidResult) => store.complete(key, result, expiresAtMs).catch(() => store.release(key));
      switch (check.kind) {
        case 'claimed':
          return { kind: 'claimed', payment: tracked(store, check.payment, key, fingerprint, remember) };
        case 'replayed':
        case 'collected':
          await remember(check.result);
          return check;
        default:
          await store.release(key);
          return check;
      }
    },
  };
}

/** The claimed payment, with the id following its fate: completed with it, or released. */
function tracked(
  store: PaymentStore,
  payment: ClaimedPayment,
  key: string,
  fingerprint: string,
  remember: (result: PaidResult) => Promise<void>,
): ClaimedPayment {
  const free = () => store.release(key).catch(() => undefined);
  return {
    from: payment.from,
    nonce: payment.nonce,
    async verify() {
      let verdict;
      try {
        verdict = await payment.verify();
      } catch (error) {
        await free();
        throw error;
      }
      if (verdict.kind !== 'verified') await free();
      return verdict;
    },
    async release() {
      await payment.release();
      await free();
    },
    async settle(work) {
      try {
        const outcome = await payment.settle(work);
        if (outcome.kind === 'settle-failed') await free();
        return outcome;
      } catch (error) {
        await free();
        throw error;
      }
    },
    async abandon() {
      await payment.abandon();
      await free();
    },
    async complete(result, settled) {
      try {
        await payment.complete(result, settled);
      } finally {
        // Read back only by this wrapper, which hands it out to payloads signed by the payer
        // (signedByPayer), never by the processor's signature-bound replay: no hash to keep.
        await remember({
          status: result.status,
          contentType: result.contentType,
          headers: result.headers,
          body: result.body,
          fingerprint,
          receipt: settled.receipt,
          signatureHash: '',
        });
      }
    },
  };
}

/** Whether the payload is a plain ECDSA signature by `authorization.from` over our offer. */
async function signedByPayer(
  identifier: { authorization: ExactAuthorization; signature: string },
  offer: Parameters<typeof signerMismatch>[2],
): Promise<boolean> {
  if (!isPlainEcdsa(identifier.signature)) return false;
  return (await signerMismatch(identifier.authorization, identifier.signature, offer)) === undefined;
}
