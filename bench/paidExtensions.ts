// What receipts and sign-in cost a paid request: the paid p50 of POST /v1/invoice.pdf on a service
// with signed offers and receipts (RECEIPT_SIGNING_KEY) and sign-in-with-x on, against the same
// service with both off, in the same run, requests alternated between the two (ABBA) so that load
// and warm-up fall on both alike. Both services share one renderer and one facilitator, which runs in
// a process of its own (facilitatorProcess.ts). Target: on / off ≤ 1.05×.
import { loadavg } from 'node:os';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../src/config.js';
import { EXAMPLE_INVOICE } from '../src/invoice/example.js';
import { createLogger } from '../src/logger.js';
import { startRenderer } from '../src/settings.js';
import { startPaidService } from '../test/support/paidService.js';
import { challengeOf, signerFor } from '../test/support/x402Buyer.js';
import { startFacilitatorProcess } from './facilitatorProcess.js';
import { percentile } from './measure.js';
import { scaled } from './scale.js';

const SAMPLES = scaled(Number(process.env.BENCH_PAID_SAMPLES ?? 30));
const WARMUP = scaled(3);

const facilitator = await startFacilitatorProcess();
const renderer = await startRenderer(loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), createLogger('silent'));
const variants: { name: string; env: Record<string, string> }[] = [
  { name: 'receipts signed, sign-in on', env: { RECEIPT_SIGNING_KEY: generatePrivateKey(), SIGN_IN_WITH_X: 'on' } },
  { name: 'both off', env: { SIGN_IN_WITH_X: 'off' } },
];
const services = await Promise.all(
  variants.map(({ env }) => startPaidService({ net: facilitator, renderer, rateLimits: false, env })),
);
try {
  const signers = await Promise.all(
    services.map(async (service, index) => signerFor(facilitator.buyers[index]!, await challengeOf(service.url))),
  );
  const times: number[][] = variants.map(() => []);
  for (let round = 0; round < WARMUP + SAMPLES; round++) {
    // ABBA: which variant goes first alternates too, so neither always follows the other.
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const service = services[index]!;
      // A fresh authorization each time, signed before the clock starts.
      const { header } = await signers[index]!();
      const body = JSON.stringify({ ...EXAMPLE_INVOICE, invoice_number: `P-${round}` });
      const started = performance.now();
      const response = await fetch(`${service.url}/v1/invoice.pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': header },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`${variants[index]!.name}: paid request answered ${response.status}`);
      if (round >= WARMUP) times[index]!.push(performance.now() - started);
    }
  }
  const [on, off] = times.map((values) => percentile(values, 50)) as [number, number];
  console.log(
    `paid p50 /v1/invoice.pdf, ${SAMPLES} alternated samples each, load average ${loadavg()[0]!.toFixed(2)}:`,
  );
  console.log(
    `  ${variants[0]!.name}: ${on.toFixed(1)} ms; ${variants[1]!.name}: ${off.toFixed(1)} ms; ratio ${(on / off).toFixed(3)}× (target ≤ 1.05×)`,
  );
} finally {
  for (const service of services) await service.close();
  await renderer.close();
  await facilitator.close();
}
