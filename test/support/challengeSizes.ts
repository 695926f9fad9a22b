import type { AddressInfo } from 'node:net';
import type { PaymentRequired } from '@x402/core/types';
import { generatePrivateKey } from 'viem/accounts';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { MAX_BATCH_ITEMS } from '../../src/batch/batchRequest.js';
import { challengeBudgetProblems } from '../../src/http/challengeBudget.js';
import { createHttpServer } from '../../src/http/httpServer.js';
import { paymentDependencies } from '../../src/http/paymentDependencies.js';
import { createLogger } from '../../src/logger.js';
import { isPaid, type PricedOperation } from '../../src/operations/operation.js';
import type { PaymentProcessor } from '../../src/payment/paymentProcessor.js';
import { createReceiptSigner } from '../../src/payment/receipts.js';
import { startPayments } from '../../src/payment/startPayments.js';
import { paymentSettings } from '../../src/settings.js';

/** A public base URL of exactly 100 characters. */
export const LONG_BASE_URL = `https://${'a'.repeat(100 - 'https://'.length - '.example'.length)}.example`;

/**
 * The configurations a 402 must fit in (docs/paying-and-x402.md, "The 402 fits a proxy"): `accepts`
 * beyond the first are other USDC deployments (Base Sepolia, Ethereum), as a trial network adds one.
 */
export const CONFIGURATIONS: { name: string; env: Record<string, string>; extraAccepts: number }[] = [
  { name: 'default', env: {}, extraAccepts: 0 },
  { name: 'receipts signed', env: { RECEIPT_SIGNING_KEY: generatePrivateKey() }, extraAccepts: 0 },
  {
    name: 'receipts signed, PUBLIC_BASE_URL of 100 characters',
    env: { RECEIPT_SIGNING_KEY: generatePrivateKey(), PUBLIC_BASE_URL: LONG_BASE_URL },
    extraAccepts: 0,
  },
  {
    name: 'receipts signed, PUBLIC_BASE_URL of 100 characters, 3 accepts',
    env: { RECEIPT_SIGNING_KEY: generatePrivateKey(), PUBLIC_BASE_URL: LONG_BASE_URL },
    extraAccepts: 2,
  },
];

const OTHER_USDC = [
  { network: 'eip155:84532', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC' },
  { network: 'eip155:1', asset: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', name: 'USD Coin' },
] as const;

/** The processor with more accepts entries in every challenge, each with its signed offer when signing. */
function withExtraAccepts(processor: PaymentProcessor, count: number, signingKey?: string): PaymentProcessor {
  if (count === 0) return processor;
  const signer = signingKey ? createReceiptSigner(signingKey as `0x${string}`) : undefined;
  const widen = async (paymentRequired: PaymentRequired): Promise<PaymentRequired> => {
    const { 'offer-receipt': _signed, ...extensions } = paymentRequired.extensions ?? {};
    const first = paymentRequired.accepts[0]!;
    const more = OTHER_USDC.slice(0, count).map(({ network, asset, name }) => ({
      ...first,
      network: network as `${string}:${string}`,
      asset,
      extra: { ...first.extra, name },
    }));
    const widened = { ...paymentRequired, accepts: [first, ...more], extensions };
    return signer ? signer.signOffers(widened) : widened;
  };
  return {
    ...processor,
    challenge: async (resource, error) => widen(await processor.challenge(resource, error)),
    async check(...args) {
      const check = await processor.check(...args);
      return check.kind === 'payment-required'
        ? { ...check, paymentRequired: await widen(check.paymentRequired) }
        : check;
    },
  };
}

export interface MeasuredChallenge {
  path: string;
  /** The 402's whole header block as sent: status line, every `name: value\r\n`, the blank line. */
  blockBytes: number;
  paymentRequiredBytes: number;
}

/**
 * Starts the app with its real payment processor (its facilitator a closed loopback port: nothing
 * unpaid reaches one) in a configuration, and measures the 402 of every paid operation for its
 * example body (a batch: the largest, the widest amount).
 */
export async function measureChallenges(configuration: (typeof CONFIGURATIONS)[number]) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    PUBLIC_BASE_URL: 'https://invoices.example',
    FACILITATOR_URL: 'http://127.0.0.1:9',
    PAY_TO: '0x1111111111111111111111111111111111111111',
    ...configuration.env,
  });
  const payments = await startPayments(paymentSettings(config), { log: () => undefined });
  const processor = withExtraAccepts(payments.processor, configuration.extraAccepts, config.RECEIPT_SIGNING_KEY);
  const { app, routes, close } = createApp({
    config,
    logger: createLogger('silent'),
    payment: paymentDependencies({ ...payments, processor }),
  });
  const server = createHttpServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const measured: MeasuredChallenge[] = [];
    for (const route of routes.filter(isPaid)) measured.push(await measureRoute(url, route));
    const problems = await challengeBudgetProblems(routes, processor, {
      publicBaseUrl: config.PUBLIC_BASE_URL,
    });
    return { measured, problems };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    close();
    await payments.close();
  }
}

/** The body a paid route is measured with: its example; a batch's grown to the largest batch. */
export function widestBodyOf(route: PricedOperation): unknown {
  const example = route.request?.example as { invoices?: unknown[] } | undefined;
  if (!example?.invoices) return example;
  const [first] = example.invoices as Record<string, unknown>[];
  return {
    ...example,
    invoices: Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({ ...first, invoice_number: `WIDE-${i}` })),
  };
}

async function measureRoute(url: string, route: PricedOperation): Promise<MeasuredChallenge> {
  const body = widestBodyOf(route);
  const document = route.request?.document;
  const response = await fetch(`${url}${route.path}`, {
    method: route.method,
    // A document row is measured with its price probe (a bare POST): the same challenge.
    ...(body !== undefined && !document
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  if (response.status !== 402) throw new Error(`${route.path}: ${response.status}, not the 402`);
  let block = `HTTP/1.1 ${response.status} ${response.statusText}\r\n`;
  response.headers.forEach((value, name) => (block += `${name}: ${value}\r\n`));
  return {
    path: route.path,
    blockBytes: Buffer.byteLength(`${block}\r\n`),
    paymentRequiredBytes: response.headers.get('PAYMENT-REQUIRED')!.length,
  };
}
