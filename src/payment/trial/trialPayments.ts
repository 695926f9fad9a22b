import { SPECIMEN_NOTE } from '../../invoice/specimen.js';
import { createFacilitatorClient, type SettleResponse } from '../facilitatorClient.js';
import { checkFacilitatorSupport } from '../facilitatorSupport.js';
import type { PaymentRequirements } from '@x402/core/types';
import { buildRequirements, type OfferTerms, type PricedResource } from '../offer.js';
import { createPaymentProcessor, type PaymentEvent, type PaymentProcessor } from '../paymentProcessor.js';
import { withPaymentIdentifier } from '../paymentIdentifier.js';
import type { PaymentStore } from '../paymentStore.js';
import type { ReceiptSigner } from '../receipts.js';
import { startLocalTrialChain, type LocalTrialChain } from '../local/localTrialChain.js';
import { TRIAL_NETWORK, TRIAL_USDC_DOMAIN, USDC_ON_BASE_SEPOLIA } from './trialNetwork.js';

/** The trial network's own settings (TRIAL_* variables); everything else is the main offer's. */
export interface TrialSettings {
  facilitatorUrl: string;
  facilitatorAuthHeader?: string | undefined;
  facilitatorTimeoutMs: number;
  payTo: string;
  asset?: string | undefined;
  maxTimeoutSeconds: number;
  baseUrl: string;
}

export interface TrialPayments {
  processor: PaymentProcessor;
  terms: OfferTerms;
}

/** The trial network's offer terms: Base Sepolia's test USDC unless another asset is configured. */
const trialTermsOf = (settings: Pick<TrialSettings, 'asset' | 'payTo' | 'maxTimeoutSeconds'>): OfferTerms => ({
  network: TRIAL_NETWORK,
  asset: settings.asset ?? USDC_ON_BASE_SEPOLIA,
  payTo: settings.payTo,
  eip712Name: TRIAL_USDC_DOMAIN.name,
  eip712Version: TRIAL_USDC_DOMAIN.version,
  maxTimeoutSeconds: settings.maxTimeoutSeconds,
});

/**
 * The trial network's offer for a resource, as the main processor lists it after its own in every
 * challenge (startPayments.ts), so that it is signed with it when receipts are on.
 */
export const trialAccepts =
  (configuration: TrialConfiguration, mainPayTo: string, maxTimeoutSeconds: number) =>
  (resource: PricedResource): PaymentRequirements[] => [
    buildRequirements(
      resource,
      trialTermsOf({ asset: configuration.asset, payTo: configuration.payTo ?? mainPayTo, maxTimeoutSeconds }),
    ),
  ];

/** The settlement's own note that it bought a specimen: `extensions.specimen` of PAYMENT-RESPONSE. */
const SPECIMEN_EXTENSION = 'specimen';

/**
 * A second payment processor for the trial network (Base Sepolia test USDC): its own terms and
 * facilitator, the main one's store (its keys name the network) and receipt signer. Every
 * settlement it delivers says that the document is a specimen, signed receipt or not.
 */
export async function startTrialPayments(
  settings: TrialSettings,
  shared: {
    store: PaymentStore;
    receipts?: ReceiptSigner | undefined;
    log: (line: string) => void;
    onEvent?: ((event: PaymentEvent, details: object) => void) | undefined;
    duplicateWaitMs?: number | undefined;
  },
): Promise<TrialPayments> {
  const terms = trialTermsOf(settings);
  const authHeader = settings.facilitatorAuthHeader;
  const authHeaders = authHeader ? () => ({ authorization: authHeader }) : undefined;
  const support = await checkFacilitatorSupport({
    url: settings.facilitatorUrl,
    network: TRIAL_NETWORK,
    timeoutMs: Math.min(settings.facilitatorTimeoutMs, 5000),
    ...(authHeaders ? { authHeaders: authHeaders() } : {}),
  });
  if (support.kind === 'unchecked') shared.log(`trial network: facilitator support not checked (${support.reason})`);
  const facilitator = createFacilitatorClient({
    url: settings.facilitatorUrl,
    timeoutMs: settings.facilitatorTimeoutMs,
    ...(authHeaders ? { authHeaders } : {}),
  });
  const waits = shared.duplicateWaitMs !== undefined ? { duplicateWaitMs: shared.duplicateWaitMs } : {};
  const processor = withPaymentIdentifier(
    createPaymentProcessor({
      terms,
      baseUrl: settings.baseUrl,
      facilitator,
      store: shared.store,
      receipts: specimenReceipts(shared.receipts),
      ...(shared.onEvent ? { onEvent: shared.onEvent } : {}),
      ...waits,
    }),
    shared.store,
    waits,
  );
  shared.log(`trial network on: ${TRIAL_NETWORK} test USDC ${terms.asset} via ${settings.facilitatorUrl}`);
  return { processor, terms };
}

/**
 * The receipt side of the processor (receipts.ts) for test money: a successful settlement gets
 * `extensions.specimen` (what was bought is a specimen), then the signed receipt when a signer is
 * configured, which names the trial network too. Offers are signed as the main signer signs them.
 */
function specimenReceipts(signer: ReceiptSigner | undefined): ReceiptSigner {
  return {
    address: signer?.address ?? '0x0000000000000000000000000000000000000000',
    kid: signer?.kid ?? '',
    signOffers: async (paymentRequired) => (signer ? signer.signOffers(paymentRequired) : paymentRequired),
    async signReceipt(settlement, resourceUrl) {
      const marked = markedAsSpecimen(settlement);
      return signer ? signer.signReceipt(marked, resourceUrl) : marked;
    },
  };
}

function markedAsSpecimen(settlement: SettleResponse): SettleResponse {
  if (!settlement.success) return settlement;
  const extensions = (settlement as { extensions?: Record<string, unknown> }).extensions;
  return {
    ...settlement,
    extensions: {
      ...extensions,
      [SPECIMEN_EXTENSION]: { info: { specimen: true, network: settlement.network, note: SPECIMEN_NOTE } },
    },
  } as SettleResponse;
}

/** TRIAL_NETWORK=on as the configuration states it: what isn't given falls back to the main network's. */
export interface TrialConfiguration {
  facilitatorUrl?: string | undefined;
  payTo?: string | undefined;
  asset?: string | undefined;
  /** Local payment mode: the port of the local trial chain (0: a free one). */
  localChainPort: number;
}

/**
 * Starts the trial network as configured: in local payment mode a local trial chain with its own
 * facilitator (localTrialChain.ts), else the configured trial facilitator (or the main one).
 */
export async function startTrial(
  configuration: TrialConfiguration,
  main: Omit<TrialSettings, 'asset'> & { localPaymentMode: boolean },
  shared: Parameters<typeof startTrialPayments>[1],
): Promise<TrialPayments & { local?: LocalTrialChain; close(): Promise<void> }> {
  const local = main.localPaymentMode
    ? await startLocalTrialChain({ chainPort: configuration.localChainPort, log: shared.log })
    : undefined;
  const facilitatorUrl = local?.facilitatorUrl ?? configuration.facilitatorUrl ?? main.facilitatorUrl;
  try {
    const payments = await startTrialPayments(
      {
        facilitatorUrl,
        // The main facilitator's credentials go to the main facilitator only.
        facilitatorAuthHeader: facilitatorUrl === main.facilitatorUrl ? main.facilitatorAuthHeader : undefined,
        facilitatorTimeoutMs: main.facilitatorTimeoutMs,
        payTo: configuration.payTo ?? main.payTo,
        asset: configuration.asset,
        maxTimeoutSeconds: main.maxTimeoutSeconds,
        baseUrl: main.baseUrl,
      },
      shared,
    );
    return { ...payments, ...(local ? { local } : {}), close: async () => void (await local?.close()) };
  } catch (error) {
    await local?.close();
    throw error;
  }
}
