// The event-loop time an unpaid caller costs: the 402 of a paid route (its body validated on the
// compute pool, then the challenge, signed offers on) beside the free validate route with the same
// 200-line body, and a well-formed signature from a wallet without funds on the largest XML batch
// (verify refuses it; the batch's work runs on the compute pool, payment/challenges.ts and
// operations/callOperation.ts). Event-loop time is the process's active event-loop time
// (performance.eventLoopUtilization) per request; the client runs in a process of its own
// (loopClient.mjs), so it is not counted. Compare the rows as ratios against the validate row of
// the same run. The facilitator (and its
// chain) runs in a process of its own (facilitatorProcess.ts), as in production, so its verify is
// not counted: the unfunded rows are the service's own work on a refused payment.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MAX_BATCH_ITEMS } from '../src/batch/batchRequest.js';
import { EXAMPLE_EINVOICE } from '../src/einvoice/example.js';
import { pricedResource } from '../src/http/offerResource.js';
import { paymentRequiredHeader } from '../src/http/paymentEncoding.js';
import { operationList } from '../src/operations/operationList.js';
import { createChallenges } from '../src/payment/challenges.js';
import { buildPaymentRequired } from '../src/payment/offer.js';
import { createReceiptSigner } from '../src/payment/receipts.js';
import { maximalFreeRequests } from '../test/fixtures/maximalFreeRequests.js';
import { BASE_TERMS } from '../test/fixtures/offerTerms.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startRenderer } from '../src/settings.js';
import { startPaidService } from '../test/support/paidService.js';
import { startFacilitatorProcess } from './facilitatorProcess.js';
import { scaled } from './scale.js';

const ROUNDS = scaled(40);
const facilitator = await startFacilitatorProcess();
const renderer = await startRenderer(loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), createLogger('silent'));
const service = await startPaidService({
  net: facilitator,
  renderer,
  rateLimits: false,
  env: { RECEIPT_SIGNING_KEY: generatePrivateKey() },
});

const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.arrayBuffer();
  return response;
};

/**
 * Microseconds of this process's active event-loop time per request, after warm-up: the requests
 * come from a client in another process (loopClient.mjs), so only the service's work is counted.
 */
async function loopMicros(name: string, path: string, body: string, expect: number, headers = {}) {
  const job = { url: `${service.url}${path}`, body, headers, expect, warmup: scaled(5), rounds: ROUNDS };
  const client = spawn(
    process.execPath,
    [fileURLToPath(new URL('./loopClient.mjs', import.meta.url)), JSON.stringify(job)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => client.once('exit', resolve));
  const lines = createInterface({ input: client.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${name}: the client stopped (exit ${await exited})`);
    return value as string;
  };
  if ((await next()) !== 'ready') throw new Error(`${name}: the client did not get ready`);
  const before = performance.eventLoopUtilization();
  client.stdin!.write('go\n');
  if ((await next()) !== 'done') throw new Error(`${name}: the client did not finish`);
  const { active } = performance.eventLoopUtilization(before);
  client.stdin!.end();
  await exited;
  return { name, micros: (active * 1000) / ROUNDS };
}

const invoice = JSON.stringify(maximalFreeRequests().find((r) => r.path === '/v1/invoice/validate')!.body);
const batch = JSON.stringify({
  format: 'ubl',
  invoices: Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({ ...EXAMPLE_EINVOICE, invoice_number: `B-${i}` })),
});
const single = JSON.stringify({ format: 'ubl', invoices: [{ ...EXAMPLE_EINVOICE, invoice_number: 'B-0' }] });
const unfunded = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
const unfundedSignature = async (body: string) => {
  const challenge = decodePaymentRequiredHeader(
    (await post('/v1/invoices.zip', body)).headers.get('PAYMENT-REQUIRED')!,
  );
  return { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(await unfunded.createPaymentPayload(challenge)) };
};

const rows = [
  await loopMicros('validate, 200 lines (free)', '/v1/invoice/validate', invoice, 200),
  await loopMicros('unpaid 402 /v1/invoice.pdf, 200 lines', '/v1/invoice.pdf', invoice, 402),
  await loopMicros(`unpaid 402 /v1/invoices.zip, ${MAX_BATCH_ITEMS} UBL`, '/v1/invoices.zip', batch, 402),
  // The facilitator's verify runs in its own process: these are the service's decode, checks,
  // claim, the batch's work handed to the pool and withdrawn, and the 402 after verify refused.
  await loopMicros(
    'unfunded signature, 1 UBL invoice batch',
    '/v1/invoices.zip',
    single,
    402,
    await unfundedSignature(single),
  ),
  await loopMicros(
    `unfunded signature, ${MAX_BATCH_ITEMS} UBL invoice batch`,
    '/v1/invoices.zip',
    batch,
    402,
    await unfundedSignature(batch),
  ),
];
const baseline = rows[0]!.micros;
for (const { name, micros } of rows)
  console.log(
    `${name}: ${(micros / 1000).toFixed(2)} ms of event-loop time per request (${(micros / baseline).toFixed(2)}× validate)`,
  );

// The challenge alone, as main signed it (an EIP-712 offer per request) and as it is kept now.
const operation = { ...operationList().find((row) => row.path === '/v1/invoice.pdf')!, priceUsd: '0.02' };
const resource = pricedResource(operation);
const terms = BASE_TERMS;
const signer = createReceiptSigner(generatePrivateKey());
const kept = createChallenges({ terms, baseUrl: 'https://invoices.example', receipts: signer });
const timeEach = async (run: () => Promise<unknown>) => {
  for (let i = 0; i < scaled(20); i++) await run();
  const started = performance.now();
  for (let i = 0; i < ROUNDS * 5; i++) await run();
  return ((performance.now() - started) * 1000) / (ROUNDS * 5);
};
const perRequest = await timeEach(async () =>
  paymentRequiredHeader(
    await signer.signOffers(buildPaymentRequired(resource, terms, 'https://x', 'Payment required')),
  ),
);
const keptMicros = await timeEach(async () =>
  paymentRequiredHeader(await kept.challenge(resource, 'Payment required')),
);
console.log(
  `the 402 challenge with signed offers: ${perRequest.toFixed(0)} µs signed per request, ${keptMicros.toFixed(0)} µs kept (${(perRequest / keptMicros).toFixed(0)}× less)`,
);
await service.close();
await renderer.close();
await facilitator.close();
