// The paid requests of `npm run test:compose`: a payment made once, and the same
// PAYMENT-SIGNATURE sent again (after a Redis restart, with the same or another body).
import { check } from '../docker/checks.mjs';
import { http } from '../docker/health.mjs';
import { devAccountPayer, receiptOf } from '../docker/payer.mjs';

/** POSTs `body` with the given PAYMENT-SIGNATURE header (an object); the status, bytes and receipt. */
export async function send(url, body, signature) {
  const response = await http(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signature },
    body,
  });
  return {
    status: response.status,
    pdf: Buffer.from(await response.arrayBuffer()),
    receipt: receiptOf(response.headers),
  };
}

/** A buyer paying from dev account `accountIndex`: the 402 first, then the paid request. */
export async function payingClient(accountIndex) {
  const payer = await devAccountPayer(accountIndex);
  return async function pay(url, body) {
    const challenge = await http(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    check(challenge.status === 402, `unpaid request: expected 402, got ${challenge.status}`);
    const { signature } = await payer.sign(challenge.headers, await challenge.json().catch(() => undefined));
    return { signature, ...(await send(url, body, signature)) };
  };
}
