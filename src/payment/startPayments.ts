import { createFacilitatorClient, type FacilitatorClientOptions } from './facilitatorClient.js';
import { createFacilitatorProbe, type FacilitatorProbe } from './facilitatorProbe.js';
import { checkFacilitatorSupport } from './facilitatorSupport.js';
import { startLocalPaymentNetwork, type LocalPaymentNetwork } from './local/localPaymentNetwork.js';
import { createMemoryPaymentStore } from './memoryPaymentStore.js';
import { createRedisPaymentStore } from './redisPaymentStore.js';
import type { OfferTerms } from './offer.js';
import { createPaymentProcessor, type PaymentEvent, type PaymentProcessor } from './paymentProcessor.js';
import { withPaymentIdentifier } from './paymentIdentifier.js';
import type { PaymentStore } from './paymentStore.js';
import { devKey, RECEIPT_SIGNER_INDEX } from './local/devAccounts.js';
import { createReceiptSigner, type ReceiptSigner } from './receipts.js';
import { startSignInWithX, type SignInWithX } from './signInWithX/startSignInWithX.js';
import { startTrial, trialAccepts, type TrialConfiguration } from './trial/trialPayments.js';

export interface PaymentSettings {
  localPaymentMode: boolean;
  facilitatorUrl?: string | undefined;
  facilitatorAuthHeader?: string | undefined;
  facilitatorTimeoutMs: number;
  payTo?: string | undefined;
  network: `${string}:${string}`;
  asset: string;
  eip712Name: string;
  eip712Version: string;
  maxTimeoutSeconds: number;
  baseUrl: string;
  localChainPort: number;
  localFacilitatorPort: number;
  /** Shared payment state for several instances; unset: in memory (one instance). */
  redisUrl?: string | undefined;
  /** Signs offers and receipts (receipts.ts); unset: a dev key in local payment mode, none otherwise. */
  receiptSigningKey?: `0x${string}` | undefined;
  /** Sign-in-with-x re-downloads (signInWithX/); unset: off. */
  signInWithX?: { entitlementDays: number } | undefined;
  /** The trial network (trial/); unset: off. */
  trial?: TrialConfiguration | undefined;
}

export interface Payments {
  processor: PaymentProcessor;
  terms: OfferTerms;
  /** Readiness: has the facilitator answered recently? */
  facilitatorProbe: FacilitatorProbe;
  /** Signs the 402's offers and every settlement's receipt; absent: the offer-receipt extension is off. */
  receipts?: ReceiptSigner;
  /** Present in local payment mode: the embedded chain and facilitator. */
  local?: LocalPaymentNetwork;
  /** Who paid for what, for sign-in-with-x re-downloads (present when it is on). */
  signIn?: SignInWithX;
  /** The trial network's processor and terms (present with TRIAL_NETWORK=on). */
  trial?: Awaited<ReturnType<typeof startTrial>>;
  close(): Promise<void>;
}

/**
 * Production: a configured facilitator and payTo. Local payment mode (no facilitator configured):
 * a real chain and facilitator on loopback, reached through the same HTTP facilitator client.
 */
export async function startPayments(
  settings: PaymentSettings,
  hooks: {
    log: (line: string) => void;
    onEvent?: (event: PaymentEvent, details: object) => void;
    observe?: FacilitatorClientOptions['observe'];
    store?: PaymentStore;
    /** How long a duplicate of an in-flight payment waits (tests shorten it). */
    duplicateWaitMs?: number;
  },
): Promise<Payments> {
  let local: LocalPaymentNetwork | undefined;
  if (settings.localPaymentMode) {
    local = await startLocalPaymentNetwork({
      chainPort: settings.localChainPort,
      facilitatorPort: settings.localFacilitatorPort,
      log: hooks.log,
    });
  }
  const facilitatorUrl = local?.facilitatorUrl ?? settings.facilitatorUrl;
  const payTo = settings.payTo ?? local?.payTo;
  if (!facilitatorUrl || !payTo)
    throw new Error('a facilitator URL and PAY_TO are required outside local payment mode');

  const terms: OfferTerms = {
    network: settings.network,
    asset: settings.asset,
    payTo,
    eip712Name: settings.eip712Name,
    eip712Version: settings.eip712Version,
    maxTimeoutSeconds: settings.maxTimeoutSeconds,
  };
  const authHeader = settings.facilitatorAuthHeader;
  const authHeaders = authHeader ? () => ({ authorization: authHeader }) : undefined;
  try {
    const support = await checkFacilitatorSupport({
      url: facilitatorUrl,
      network: settings.network,
      timeoutMs: Math.min(settings.facilitatorTimeoutMs, 5000),
      ...(authHeaders ? { authHeaders: authHeaders() } : {}),
    });
    if (support.kind === 'unchecked')
      hooks.log(
        `facilitator support not checked at start-up (${support.reason}); readiness reports it until it answers`,
      );
  } catch (error) {
    await local?.close(); // nothing else was started yet
    throw error;
  }
  const facilitatorProbe = createFacilitatorProbe({
    url: facilitatorUrl,
    timeoutMs: settings.facilitatorTimeoutMs,
    ...(authHeaders ? { authHeaders } : {}),
  });
  const facilitator = createFacilitatorClient({
    url: facilitatorUrl,
    timeoutMs: settings.facilitatorTimeoutMs,
    ...(authHeaders ? { authHeaders } : {}),
    observe(operation, ms, outcome) {
      if (outcome === 'ok') facilitatorProbe.markReachable();
      hooks.observe?.(operation, ms, outcome);
    },
  });
  const store =
    hooks.store ??
    (settings.redisUrl
      ? createRedisPaymentStore({ url: settings.redisUrl, log: hooks.log })
      : createMemoryPaymentStore());
  const receiptKey =
    settings.receiptSigningKey ?? (settings.localPaymentMode ? devKey(RECEIPT_SIGNER_INDEX).privateKey : undefined);
  const receipts = receiptKey ? createReceiptSigner(receiptKey) : undefined;
  if (receipts)
    hooks.log(
      `signed offers and receipts (x402 offer-receipt, EIP-712) by ${receipts.address}${settings.receiptSigningKey ? '' : ' (local dev key)'}`,
    );
  const processor = withPaymentIdentifier(
    createPaymentProcessor({
      receipts,
      terms,
      ...(settings.trial ? { alsoAccepts: trialAccepts(settings.trial, payTo, settings.maxTimeoutSeconds) } : {}),
      baseUrl: settings.baseUrl,
      facilitator,
      store,
      ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
      ...(hooks.duplicateWaitMs !== undefined ? { duplicateWaitMs: hooks.duplicateWaitMs } : {}),
    }),
    store,
    hooks.duplicateWaitMs !== undefined ? { duplicateWaitMs: hooks.duplicateWaitMs } : {},
  );
  const signIn = settings.signInWithX ? startSignInWithX(settings.signInWithX, settings) : undefined;
  const trial = settings.trial
    ? await startTrial(
        settings.trial,
        { ...settings, facilitatorUrl, payTo },
        { store, receipts, log: hooks.log, onEvent: hooks.onEvent, duplicateWaitMs: hooks.duplicateWaitMs },
      ).catch(async (error: unknown) => {
        await local?.close();
        throw error;
      })
    : undefined;
  return {
    processor,
    terms,
    facilitatorProbe,
    ...(receipts ? { receipts } : {}),
    ...(local ? { local } : {}),
    ...(signIn ? { signIn } : {}),
    ...(trial ? { trial } : {}),
    async close() {
      await store.close();
      await signIn?.entitlements.close();
      await trial?.close();
      await local?.close();
    },
  };
}
