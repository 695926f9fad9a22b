// `npm run buy -- [--route PATH] <invoice.json> [out]`: pays for one paid route (default
// /v1/invoice.pdf; e.g. /v1/e-invoice/factur-x.pdf, /v1/e-invoice/cii.xml, /v1/e-invoice/ubl.xml)
// with a real x402 v2 client (@x402/fetch), saves the answer and prints the settlement receipt.
// `npm run buy -- --batch [--format pdf|factur-x|cii|ubl] <invoices.json> [out.zip]`: one payment
// for many invoices (POST /v1/invoices.zip); invoices.json holds an array of invoices or a whole
// batch body ({ "format", "invoices" }).
// When the service signs receipts (x402 offer-receipt), the receipt is verified offline and shown,
// and the file is checked against the Content-Digest header.
// A .xml or .pdf file is sent as application/xml or application/pdf (for /v1/e-invoice/render.pdf).
//   SERVICE_URL        default http://127.0.0.1:8080
//   BUYER_PRIVATE_KEY  0x… key of the paying wallet. Unset: dev account 1 of the local test chain,
//                      which only works against a service in local payment mode (test USDC).
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  extractReceiptFromResponse,
  verifyReceiptSignatureEIP712,
  type EIP712SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { devKey } from '../src/payment/local/devAccounts.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const batchAt = args.indexOf('--batch');
const batch = batchAt >= 0 && args.splice(batchAt, 1).length > 0;
const format = option('--format');
const route = batch ? '/v1/invoices.zip' : (option('--route') ?? '/v1/invoice.pdf');
const [invoicePath, outPath = defaultOut(route)] = args;
if (!invoicePath || !route.startsWith('/') || (format && !batch)) {
  process.stderr.write(
    'usage: npm run buy -- [--route /v1/e-invoice/factur-x.pdf] <invoice.json> [out]\n       npm run buy -- --batch [--format pdf|factur-x|cii|ubl] <invoices.json> [out.zip]\n',
  );
  process.exit(2);
}

/** invoice.pdf for /v1/invoice.pdf, factur-x.pdf, cii.xml, ubl.xml for the e-invoice routes, invoices.zip for a batch. */
function defaultOut(path: string): string {
  const name = path.split('/').at(-1) ?? '';
  return path === '/v1/invoice.pdf' || !/\.(pdf|xml|zip)$/.test(name) ? 'invoice.pdf' : name;
}
const serviceUrl = (process.env.SERVICE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const key = process.env.BUYER_PRIVATE_KEY as `0x${string}` | undefined;
if (!key)
  process.stderr.write(
    'BUYER_PRIVATE_KEY is not set: paying with dev account 1 of the local test chain (local payment mode only).\n',
  );
const account = privateKeyToAccount(key ?? devKey(1).privateKey);

const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
const payingFetch = wrapFetchWithPayment(fetch, client);

// A batch is JSON; an e-invoice to render (/v1/e-invoice/render.pdf) is sent as itself: XML or PDF bytes.
const input = await readFile(invoicePath);
const body = batch ? JSON.stringify(batchBody(JSON.parse(input.toString('utf8')))) : input;
const contentType = batch
  ? 'application/json'
  : /\.xml$/i.test(invoicePath)
    ? 'application/xml'
    : /\.pdf$/i.test(invoicePath)
      ? 'application/pdf'
      : 'application/json';
const started = performance.now();
const response = await payingFetch(`${serviceUrl}${route}`, {
  method: 'POST',
  headers: { 'content-type': contentType },
  body,
  signal: AbortSignal.timeout(batch ? 600_000 : 120_000),
});
const ms = Math.round(performance.now() - started);

/** An array of invoices or a whole batch body, with --format applied. */
function batchBody(parsed: unknown): object {
  const base = Array.isArray(parsed) ? { invoices: parsed } : (parsed as object);
  return format ? { ...base, format } : base;
}

const receiptHeader = response.headers.get('PAYMENT-RESPONSE');
const receipt = receiptHeader ? decodePaymentResponseHeader(receiptHeader) : undefined;
if (response.status !== 200) {
  process.stderr.write(`HTTP ${response.status} after ${ms} ms\n${await response.text()}\n`);
  if (receipt) process.stderr.write(`receipt: ${JSON.stringify(receipt, null, 2)}\n`);
  process.exit(1);
}
const file = Buffer.from(await response.arrayBuffer());
await writeFile(outPath, file);
const pages = response.headers.get('x-page-count');
const count = response.headers.get('x-invoice-count');
process.stdout.write(
  `saved ${outPath} (${file.length} bytes${pages ? `, ${pages} pages` : ''}${count ? `, ${count} invoices` : ''}) in ${ms} ms, paid by ${account.address}\n`,
);
process.stdout.write(`settlement: ${JSON.stringify(receipt, null, 2)}\n`);

// The signed receipt, verified offline: who signed it (compare with /.well-known/x402's signer) and what it says.
const signed = extractReceiptFromResponse(response) as EIP712SignedReceipt | undefined;
if (signed) {
  const { signer, payload } = await verifyReceiptSignatureEIP712(signed);
  const digest = `sha-256=:${createHash('sha256').update(file).digest('base64')}:`;
  process.stdout.write(`signed receipt (EIP-712) recovers to ${signer}: ${JSON.stringify(payload, null, 2)}\n`);
  process.stdout.write(
    `Content-Digest ${response.headers.get('content-digest') === digest ? 'matches' : 'DOES NOT match'} the saved bytes (${digest})\n`,
  );
}
