import type { PaymentRequired } from '../payment/compactChallenge.js';
import type { EntitlementStore } from '../payment/signInWithX/entitlementStore.js';
import { withSignInOffer } from '../payment/signInWithX/signInChallenge.js';
import { checkSignInMessage, decodeSignIn, type SignInCheck } from '../payment/signInWithX/signInProof.js';
import { isTrialNetwork } from '../payment/trial/trialNetwork.js';
import type { PricedResource } from '../payment/offer.js';
import type { Answer } from './operation.js';
import type { PaidCall, PaidCallHooks, PaidOutcome } from './paidCall.js';

export interface SignInWithXOptions {
  entitlements: EntitlementStore;
  /** The configured public base URL: sign-in messages are bound to its origin. */
  baseUrl: string;
  /** How long a payment entitles its payer to the same document again (SIGN_IN_WITH_X_DAYS). */
  entitlementMs: number;
  /** The CAIP-2 networks the 402 offers: a sign-in names one of them. */
  networks: readonly string[];
  /** How old a sign-in message may be (issuedAt), and how long a 402's sign-in offer is valid. */
  messageMaxAgeMs?: number;
  now?: () => number;
  onEvent?: (event: SignInEvent, details: { payer?: string; reason?: string }) => void;
}

type SignInEvent = 'signed_in' | 'sign_in_refused' | 'entitlement_granted' | 'entitlement_not_stored';

const DEFAULT_MESSAGE_MAX_AGE_MS = 5 * 60 * 1000;

/**
 * Sign-in-with-x (the x402 extension, @x402/extensions/sign-in-with-x) around the paid call:
 *
 *   signed in, with an entitlement to this very request ─► the work again, free (nothing settled)
 *   anything else (no sign-in, refused, not entitled) ───► the paid call, unchanged
 *   its 402 ─► carries a fresh sign-in offer; its paid answer ─► entitles the payer
 *
 * The entitlement is the payer's address and the request fingerprint (method, path and body), so
 * a sign-in fetches exactly what its wallet paid for; another wallet, or another body, gets the
 * ordinary 402. A payment made with test money entitles to a specimen again (trial/).
 */
export function withSignInWithX(paidCall: PaidCall, options: SignInWithXOptions): PaidCall {
  const { entitlements } = options;
  const now = options.now ?? Date.now;
  const maxAgeMs = options.messageMaxAgeMs ?? DEFAULT_MESSAGE_MAX_AGE_MS;
  const emit = options.onEvent ?? (() => {});
  const offer = (paymentRequired: PaymentRequired) =>
    withSignInOffer(paymentRequired, { now: now(), baseUrl: options.baseUrl });

  return async function signInOrPay(resource, payment, fingerprint, work, hooks = {}) {
    let refusal: string | undefined;
    if (hooks.signIn && fingerprint !== '') {
      const entitled = await signedIn(resource, fingerprint, hooks);
      if (entitled.kind === 'entitled') {
        const answer = await work(new AbortController().signal, { specimen: entitled.specimen });
        return { kind: 'answered', answer: privately(answer) };
      }
      refusal = entitled.reason;
    }
    let payer: string | undefined;
    const outcome = await paidCall(resource, payment, fingerprint, work, {
      ...hooks,
      onVerified(details) {
        payer = details.payer;
        hooks.onVerified?.(details);
      },
    });
    if (outcome.kind === 'payment-required') return challengeWithSignIn(outcome, refusal);
    if (outcome.kind === 'paid' && payer && payment)
      await entitle(payer, fingerprint, payment.payload.accepted.network);
    return outcome;
  };

  /** The sign-in's verdict on this request: entitled (and to what), or why not. */
  async function signedIn(resource: PricedResource, fingerprint: string, hooks: PaidCallHooks) {
    const payload = decodeSignIn(hooks.signIn!); // malformed: a 400, as for PAYMENT-SIGNATURE
    let check: SignInCheck = await checkSignInMessage(payload, {
      baseUrl: options.baseUrl,
      networks: options.networks,
      maxAgeMs,
    });
    if (check.kind === 'signed-in') {
      const issuedAtMs = Date.parse(payload.issuedAt);
      // Last and once: a replay of the same message (same nonce) is refused on every instance.
      if (!(await entitlements.useNonce(payload.nonce, issuedAtMs + maxAgeMs)))
        check = { kind: 'refused', reason: 'invalid_siwx_nonce', message: 'this sign-in message was already used' };
    }
    if (check.kind === 'refused') {
      emit('sign_in_refused', { reason: check.reason });
      return { kind: 'refused' as const, reason: `${check.reason}: ${check.message}` };
    }
    const entitlement = await entitlements.find(check.address, fingerprint);
    if (!entitlement) {
      emit('sign_in_refused', { payer: check.address, reason: 'not_entitled' });
      return {
        kind: 'refused' as const,
        reason: 'this wallet has not paid for this request (or its entitlement ended)',
      };
    }
    // A re-download costs a render: it spends the payer's budget like a payment would.
    await hooks.admitPayer?.({ from: check.address.toLowerCase(), proven: true });
    emit('signed_in', { payer: check.address });
    return { kind: 'entitled' as const, specimen: entitlement.specimen };
  }

  async function entitle(payer: string, fingerprint: string, network: string) {
    const grantedAtMs = now();
    try {
      await entitlements.grant(payer, fingerprint, {
        network,
        specimen: isTrialNetwork(network),
        grantedAtMs,
        expiresAtMs: grantedAtMs + options.entitlementMs,
      });
      emit('entitlement_granted', { payer });
    } catch (error) {
      // Paid and done: deliver; the payer can still re-download by paying again.
      emit('entitlement_not_stored', { payer, reason: String(error) });
    }
  }

  function challengeWithSignIn(
    outcome: Extract<PaidOutcome, { kind: 'payment-required' }>,
    refusal: string | undefined,
  ): PaidOutcome {
    const message = refusal ? `${outcome.message} (sign-in refused: ${refusal})` : outcome.message;
    return { ...outcome, paymentRequired: offer(outcome.paymentRequired), message };
  }
}

/** A re-download is the payer's own document: never kept by a shared cache. */
const privately = (answer: Answer): Answer => ({
  ...answer,
  headers: { ...answer.headers, 'Cache-Control': 'private' },
});
