// The service under fuzz, in a process of its own so that its memory is measured alone (the
// fuzzer's samples and HTTP client live in the test process). Controlled over IPC by fuzz.test.ts:
// it answers { url } once listening, and { report } with what it saw and its RSS after a full GC.
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { paymentDependencies } from '../../../src/http/paymentDependencies.js';
import type { PdfRenderer } from '../../../src/operations/operation.js';
import { createLogger } from '../../../src/logger.js';
import type { FacilitatorClient } from '../../../src/payment/facilitatorClient.js';
import { createMemoryPaymentStore } from '../../../src/payment/memoryPaymentStore.js';
import { createPaymentProcessor } from '../../../src/payment/paymentProcessor.js';
import { BASE_TERMS } from '../../fixtures/offerTerms.js';

export interface FuzzReport {
  rssMb: number;
  heapUsedMb: number;
  /** Nonces the facilitator was asked to verify. */
  verified: string[];
  settles: number;
  renders: number;
  polluted: boolean;
  prototypesChanged: boolean;
}

const prototypeKeys = (proto: object) => Object.getOwnPropertyNames(proto).sort().join(',');
const pristine = [Object.prototype, Array.prototype, Function.prototype, String.prototype].map(prototypeKeys);

/**
 * Named fakes: a counting stand-in for the facilitator that refuses every payment, and a counting
 * renderer that fails (a render starts alongside verify, so it is reached for valid bodies only,
 * and thrown away when verify refuses). The real ones are fuzzed nowhere else; they are tested in
 * test/e2e and test/integration.
 */
const verified = new Set<string>();
let settles = 0;
let renders = 0;
const facilitator: FacilitatorClient = {
  async verify(payload) {
    verified.add((payload.payload as { authorization: { nonce: string } }).authorization.nonce);
    return { isValid: false, invalidReason: 'fuzz_refuses_every_payment' };
  },
  async settle() {
    settles++;
    throw new Error('never settled');
  },
};
const renderer: PdfRenderer = {
  async renderPdf() {
    renders++;
    throw new Error('fuzz renders nothing');
  },
};

// Rate limits off: thousands of bodies from one address are the point here (rate-limit.test.ts
// tests the limits).
const config = loadConfig({
  LOG_LEVEL: 'silent',
  NODE_ENV: 'test',
  PORT: '0',
  PUBLIC_BASE_URL: 'http://127.0.0.1',
  RATE_LIMIT_CLIENT_BURST: '0',
  RATE_LIMIT_PAYER_BURST: '0',
});
const terms = BASE_TERMS;
const processor = createPaymentProcessor({
  terms,
  baseUrl: config.PUBLIC_BASE_URL,
  facilitator,
  store: createMemoryPaymentStore(),
});
const { app } = createApp({
  config,
  logger: createLogger('silent'),
  renderer,
  payment: paymentDependencies({ processor, terms }),
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

process.on('message', (message: { report?: boolean }) => {
  if (!message.report) return;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const report: FuzzReport = {
    rssMb: process.memoryUsage().rss / 1048576,
    heapUsedMb: process.memoryUsage().heapUsed / 1048576,
    verified: [...verified],
    settles,
    renders,
    polluted:
      ({} as Record<string, unknown>).polluted !== undefined ||
      ([] as unknown as Record<string, unknown>).polluted !== undefined,
    prototypesChanged: [Object.prototype, Array.prototype, Function.prototype, String.prototype]
      .map(prototypeKeys)
      .some((keys, i) => keys !== pristine[i]),
  };
  process.send!({ report });
});
// The test process is gone (or done): so is this one.
process.on('disconnect', () => process.exit(0));
