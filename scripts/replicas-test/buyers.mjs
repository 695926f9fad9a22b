// The buyers of `npm run test:replicas`: each buys one PDF at a time, in a steady stream, and keeps
// every PAYMENT-SIGNATURE so that a purchase without its PDF can be sent again.
import { sleep } from '../docker/checks.mjs';
import { http } from '../docker/health.mjs';
import { devAccountPayer, receiptOf, startsAsPdf } from '../docker/payer.mjs';
import { PAUSE_MS } from './settings.mjs';

export const isPdf = (answer) => answer.status === 200 && startsAsPdf(answer.bytes);

/** The error code of a JSON error answer (the 402's x402 reason, a 409's code). */
export function reason(answer) {
  try {
    const body = JSON.parse(answer.bytes.toString('utf8'));
    return body.error?.code ?? body.error ?? body.code ?? '';
  } catch {
    return '';
  }
}

/**
 * A buyer paying from dev account `index` of the local chain; every request it sends is counted in
 * `ledger.requests`. A request that gets no answer is { status: 0, error } (the replica died).
 */
export async function buyer(index, url, body, ledger) {
  const payer = await devAccountPayer(index);
  const post = async (headers = {}) => {
    ledger.requests += 1;
    try {
      const response = await http(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body },
        90_000,
      );
      const bytes = Buffer.from(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, bytes, receipt: receiptOf(response.headers) };
    } catch (error) {
      return { status: 0, bytes: Buffer.alloc(0), error: error.cause?.code ?? error.message };
    }
  };
  return {
    /** One purchase: a 402 challenge, then the paid request. Unanswered challenges are retried. */
    async purchase() {
      const started = Date.now();
      const challenge = await post();
      if (challenge.status !== 402) return { started, ended: Date.now(), unpaid: challenge.status || challenge.error };
      const { signature, nonce } = await payer.sign(challenge.headers, JSON.parse(challenge.bytes.toString('utf8')));
      const answer = await post(signature);
      return { started, ended: Date.now(), signature, nonce, answer };
    },
    resend: (signature) => post(signature),
  };
}

/** Every buyer buys, one purchase at a time with PAUSE_MS between, until `stop()` (which waits for them). */
export function buyInStream(buyers, ledger) {
  let buying = true;
  const loops = buyers.map(async (b) => {
    while (buying) {
      ledger.purchases.push(await b.purchase());
      await sleep(PAUSE_MS);
    }
  });
  return {
    async stop() {
      buying = false;
      await Promise.all(loops);
    },
  };
}
