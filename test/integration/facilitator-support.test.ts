import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { checkFacilitatorSupport } from '../../src/payment/facilitatorSupport.js';
import { startLocalPaymentNetwork } from '../../src/payment/local/localPaymentNetwork.js';
import { startPayments } from '../../src/payment/startPayments.js';
import { paymentSettings } from '../../src/settings.js';

/** A facilitator whose GET /supported answers what the test says (status and body). */
let answer: { status: number; body: unknown } = { status: 200, body: { kinds: [] } };
let server: Server;
let url: string;
before(async () => {
  server = createServer((req, res) => {
    res.writeHead(req.url === '/supported' ? answer.status : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const start = () => {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    FACILITATOR_URL: url,
    PAY_TO: '0x1111111111111111111111111111111111111111',
  });
  const lines: string[] = [];
  return startPayments(paymentSettings(config), { log: (line) => lines.push(line) }).then(async (payments) => {
    await payments.close();
    return lines;
  });
};

test('start-up refuses a facilitator whose /supported lacks exact on the configured network, saying what it lists', async () => {
  answer = {
    status: 200,
    body: {
      kinds: [
        { x402Version: 2, scheme: 'exact', network: 'eip155:84532' },
        { x402Version: 1, scheme: 'exact', network: 'eip155:8453' },
      ],
    },
  };
  await assert.rejects(
    start(),
    /does not support x402 v2 scheme exact on eip155:8453 \(its \/supported lists: v2 exact eip155:84532, v1 exact eip155:8453\)/,
  );
  answer = { status: 200, body: { kinds: [{ x402Version: 2, scheme: 'upto', network: 'eip155:8453' }] } };
  await assert.rejects(start(), /does not support/);
});

test('start-up goes on when it is listed, or when /supported cannot be asked (logged)', async () => {
  answer = {
    status: 200,
    body: { kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }], extensions: [] },
  };
  assert.deepEqual(await start(), []);
  answer = { status: 503, body: {} };
  const lines = await start();
  assert.match(lines.join('\n'), /facilitator support not checked at start-up \(GET .*\/supported answered 503\)/);
});

test('the local facilitator lists exact on eip155:8453', async () => {
  const net = await startLocalPaymentNetwork({});
  try {
    assert.deepEqual(
      await checkFacilitatorSupport({ url: net.facilitatorUrl, network: 'eip155:8453', timeoutMs: 5000 }),
      { kind: 'supported' },
    );
  } finally {
    await net.close();
  }
});
