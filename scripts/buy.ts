// `npm run buy -- <invoice.json> [out.pdf]`: pays for one invoice PDF with a real x402 v2 client
// (@x402/fetch) and prints the settlement receipt.
//   SERVICE_URL        default http://127.0.0.1:8080
//   BUYER_PRIVATE_KEY  0x… key of the paying wallet. Unset: dev account 1 of the local test chain,
//                      which only works against a service in local payment mode (test USDC).
import { readFile, writeFile } from 'node:fs/promises';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { devKey } from '../src/payment/local/devAccounts.js';

const [invoicePath, outPath = 'invoice.pdf'] = process.argv.slice(2);
if (!invoicePath) {
  process.stderr.write('usage: npm run buy -- <invoice.json> [out.pdf]\n');
  process.exit(2);
}
const serviceUrl = (process.env.SERVICE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const key = process.env.BUYER_PRIVATE_KEY as `0x${string}` | undefined;
if (!key) process.stderr.write('BUYER_PRIVATE_KEY is not set: paying with dev account 1 of the local test chain (local payment mode only).\n');
const account = privateKeyToAccount(key ?? devKey(1).privateKey);

const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
const payingFetch = wrapFetchWithPayment(fetch, client);

const body = await readFile(invoicePath, 'utf8');
const started = performance.now();
const response = await payingFetch(`${serviceUrl}/v1/invoice.pdf`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
  signal: AbortSignal.timeout(120_000),
});
const ms = Math.round(performance.now() - started);

const receiptHeader = response.headers.get('PAYMENT-RESPONSE');
const receipt = receiptHeader ? decodePaymentResponseHeader(receiptHeader) : undefined;
if (response.status !== 200) {
  process.stderr.write(`HTTP ${response.status} after ${ms} ms\n${await response.text()}\n`);
  if (receipt) process.stderr.write(`receipt: ${JSON.stringify(receipt, null, 2)}\n`);
  process.exit(1);
}
const pdf = Buffer.from(await response.arrayBuffer());
await writeFile(outPath, pdf);
process.stdout.write(`saved ${outPath} (${pdf.length} bytes, ${response.headers.get('x-page-count') ?? '?'} pages) in ${ms} ms, paid by ${account.address}\n`);
process.stdout.write(`receipt: ${JSON.stringify(receipt, null, 2)}\n`);
