// The trial network end to end: a second local chain with Base Sepolia's chain id and test USDC
// at Base Sepolia's USDC address; a stock @x402/fetch client that only knows that network pays
// on it, and everything it buys is a specimen (a stamp on every PDF page, a note, the CII test
// flag, the receipt's extensions.specimen). An instance without the trial network refuses such a
// payment before anything is settled.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  extractOffersFromPaymentRequired,
  verifyOfferSignatureEIP712,
  type EIP712SignedOffer,
} from '@x402/extensions/offer-receipt';
import { wrapFetchWithSIWx } from '@x402/extensions/sign-in-with-x';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { SPECIMEN_TEXT } from '../../src/invoice/specimen.js';
import { startLocalTrialChain } from '../../src/payment/local/localTrialChain.js';
import { TRIAL_NETWORK, USDC_ON_BASE_SEPOLIA } from '../../src/payment/trial/trialNetwork.js';
import { pdfPages } from '../fixtures/pdfTools.js';
import { startPaidService } from '../support/paidService.js';
import { usePaymentWorld } from '../support/paymentWorld.js';
import { postJson } from '../support/testApp.js';

const world = usePaymentWorld(async ({ net, renderer }, stopLater) => {
  // The grant goes to this file's buyers, those of the main chain it is given (sharedWorld.ts).
  const trialChain = stopLater(await startLocalTrialChain({ buyers: net.buyers.map((buyer) => buyer.address) }));
  const service = stopLater(
    await startPaidService({
      net,
      renderer,
      ownOrigin: true,
      env: {
        TRIAL_NETWORK: 'on',
        TRIAL_FACILITATOR_URL: trialChain.facilitatorUrl,
        RECEIPT_SIGNING_KEY: generatePrivateKey(),
      },
    }),
  );
  const withoutTrial = stopLater(await startPaidService({ net, renderer }));
  return { trialChain, service, withoutTrial };
});

const account = (index: number) => privateKeyToAccount(world.net.buyers[index]!.privateKey);
/** A stock client that knows only the trial network: it picks the trial entry of accepts. */
const trialClient = (index: number) => new x402Client().register(TRIAL_NETWORK, new ExactEvmScheme(account(index)));
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** 80 lines: an invoice of several pages, so that "every page" means something. */
const LONG_INVOICE = {
  ...EXAMPLE_INVOICE,
  invoice_number: 'TRIAL-LONG-1',
  line_items: Array.from({ length: 80 }, (_, index) => ({
    description: `Design work, item ${index + 1}`,
    quantity: 1,
    unit_price: 10,
  })),
};

describe('a service with the trial network', () => {
  test('every 402 offers the main network first and Base Sepolia test USDC after it', async () => {
    const response = await postJson(`${world.service.url}/v1/invoice.pdf`, EXAMPLE_INVOICE);
    assert.equal(response.status, 402);
    const required = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
    assert.deepEqual(
      required.accepts.map((accept) => [accept.network, accept.asset, accept.extra]),
      [
        ['eip155:8453', world.net.usdc, { name: 'USD Coin', version: '2' }],
        [TRIAL_NETWORK, USDC_ON_BASE_SEPOLIA, { name: 'USDC', version: '2' }],
      ],
    );
  });

  test('with receipts signed, the trial entry gets its signed offer like the main entry', async () => {
    const response = await postJson(`${world.service.url}/v1/invoice.pdf`, EXAMPLE_INVOICE);
    assert.equal(response.status, 402);
    // Signed offers travel in the 402's JSON body (payment/compactChallenge.ts keeps them out of the header).
    const body = (await response.json()) as { payment_required: PaymentRequired };
    const offers = extractOffersFromPaymentRequired(body.payment_required) as EIP712SignedOffer[];
    const verified = await Promise.all(offers.map((offer) => verifyOfferSignatureEIP712(offer)));
    assert.deepEqual(
      verified.map(({ payload }, index) => [offers[index]!.acceptIndex, payload.network, payload.asset]),
      [
        [0, 'eip155:8453', world.net.usdc],
        [1, TRIAL_NETWORK, USDC_ON_BASE_SEPOLIA],
      ],
    );
    assert.equal(new Set(verified.map(({ signer }) => signer)).size, 1, 'both signed by the one receipt signer');
  });

  test('a trial payment settles on the trial chain and buys a PDF stamped SPECIMEN on every page', async () => {
    const buyer = account(4).address;
    const [trialBefore, mainBefore] = [await world.trialChain.balanceOf(buyer), await world.net.balanceOf(buyer)];
    const response = await wrapFetchWithPayment(fetch, trialClient(4))(
      `${world.service.url}/v1/invoice.pdf`,
      post(LONG_INVOICE),
    );
    assert.equal(response.status, 200);
    const settlement = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!) as {
      network: string;
      extensions?: { specimen?: { info: { specimen: boolean; note: string } } };
    };
    assert.equal(settlement.network, TRIAL_NETWORK);
    assert.equal(settlement.extensions?.specimen?.info.specimen, true);
    assert.match(settlement.extensions?.specimen?.info.note ?? '', /^SPECIMEN — paid with test USDC/);
    const pdf = Buffer.from(await response.arrayBuffer());
    if (process.env.SPECIMEN_PDF_OUT) writeFileSync(process.env.SPECIMEN_PDF_OUT, pdf);
    const pages = pdfPages(pdf);
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    for (const [index, page] of pages.entries())
      assert.ok(page.includes(SPECIMEN_TEXT), `page ${index + 1} carries the stamp`);
    assert.equal(trialBefore - (await world.trialChain.balanceOf(buyer)), 20_000n);
    assert.equal(await world.net.balanceOf(buyer), mainBefore);
  });

  test('a trial CII is flagged as a test document and a trial UBL carries the specimen note', async () => {
    for (const syntax of ['cii', 'ubl']) {
      const response = await wrapFetchWithPayment(fetch, trialClient(5))(
        `${world.service.url}/v1/e-invoice/${syntax}.xml`,
        post({ ...EXAMPLE_EINVOICE, invoice_number: `TRIAL-${syntax}` }),
      );
      assert.equal(response.status, 200, syntax);
      const xml = await response.text();
      assert.match(xml, /SPECIMEN — paid with test USDC\. This is a test document/, syntax);
      if (syntax === 'cii')
        assert.match(xml, /<ram:TestIndicator><udt:Indicator>true<\/udt:Indicator><\/ram:TestIndicator>/);
    }
  });

  test('a main-network payment is not a specimen', async () => {
    const client = new x402Client().register('eip155:8453', new ExactEvmScheme(account(6)));
    const response = await wrapFetchWithPayment(fetch, client)(
      `${world.service.url}/v1/invoice.pdf`,
      post(EXAMPLE_INVOICE),
    );
    assert.equal(response.status, 200);
    const pages = pdfPages(Buffer.from(await response.arrayBuffer()));
    assert.ok(pages.every((page) => !page.includes('SPECIMEN')));
  });

  test('a re-download by sign-in of a trial purchase is a specimen too', async () => {
    const body = { ...EXAMPLE_INVOICE, invoice_number: 'TRIAL-SIWX-1' };
    const paid = await wrapFetchWithPayment(fetch, trialClient(7))(`${world.service.url}/v1/invoice.pdf`, post(body));
    assert.equal(paid.status, 200);
    await paid.arrayBuffer();
    const again = await wrapFetchWithSIWx(fetch, account(7))(`${world.service.url}/v1/invoice.pdf`, post(body));
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('PAYMENT-RESPONSE'), null);
    const pages = pdfPages(Buffer.from(await again.arrayBuffer()));
    assert.ok(pages.every((page) => page.includes(SPECIMEN_TEXT)));
  });
});

describe('a service without the trial network', () => {
  test('refuses a trial payment before settlement', async () => {
    const trialOffer = await postJson(`${world.service.url}/v1/invoice.pdf`, EXAMPLE_INVOICE);
    const required = decodePaymentRequiredHeader(trialOffer.headers.get('PAYMENT-REQUIRED')!) as PaymentRequired;
    const unpaid = await postJson(`${world.withoutTrial.url}/v1/invoice.pdf`, EXAMPLE_INVOICE);
    const own = decodePaymentRequiredHeader(unpaid.headers.get('PAYMENT-REQUIRED')!);
    assert.deepEqual(
      own.accepts.map((accept) => accept.network),
      ['eip155:8453'],
    );
    // Signed for the trial entry, sent to the instance that has none.
    const payload = await trialClient(8).createPaymentPayload({ ...required, resource: own.resource });
    const buyer = account(8).address;
    const before = await world.trialChain.balanceOf(buyer);
    const response = await postJson(`${world.withoutTrial.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, {
      'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload),
    });
    assert.equal(response.status, 402);
    assert.equal(decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!).error, 'invalid_network');
    assert.equal(await world.trialChain.balanceOf(buyer), before);
    const { nonce } = (payload.payload as { authorization: { nonce: `0x${string}` } }).authorization;
    assert.equal(await world.trialChain.authorizationState(buyer, nonce), false);
    assert.ok(!world.withoutTrial.events.includes('verified') && !world.withoutTrial.events.includes('settled'));
  });
});
