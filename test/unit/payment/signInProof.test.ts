import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSIWxMessage, encodeSIWxHeader, type CompleteSIWxInfo } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AppError } from '../../../src/errors.js';
import { readSignInHeader } from '../../../src/http/signInHeader.js';
import { checkSignInMessage, decodeSignIn } from '../../../src/payment/signInWithX/signInProof.js';

const BASE_URL = 'https://invoices.example';
const expected = { baseUrl: BASE_URL, networks: ['eip155:8453', 'eip155:84532'], maxAgeMs: 5 * 60_000 };
const account = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());

/** A message as the service offers it, signed by `signer`, with some fields changed. */
async function signed(change: Partial<CompleteSIWxInfo> = {}, signer = account) {
  const info: CompleteSIWxInfo = {
    domain: 'invoices.example',
    uri: BASE_URL,
    version: '1',
    nonce: '0123456789abcdef',
    issuedAt: new Date().toISOString(),
    chainId: 'eip155:8453',
    type: 'eip191',
    ...change,
  };
  const signature = await signer.signMessage({ message: createSIWxMessage(info, signer.address) });
  return { ...info, address: signer.address, signature };
}

describe('checkSignInMessage', () => {
  test('a message as offered, signed by its address, signs in that address', async () => {
    assert.deepEqual(await checkSignInMessage(await signed(), expected), {
      kind: 'signed-in',
      address: account.address,
    });
    // Either offered network.
    const onTrial = await checkSignInMessage(await signed({ chainId: 'eip155:84532' }), expected);
    assert.equal(onTrial.kind, 'signed-in');
  });

  const now = Date.now();
  const refusals: [string, Partial<CompleteSIWxInfo>, string][] = [
    ['another origin', { domain: 'evil.example', uri: 'https://evil.example' }, 'invalid_siwx_domain_mismatch'],
    ['another base URL on the same origin', { uri: `${BASE_URL}/other` }, 'invalid_siwx_uri_mismatch'],
    ['a chain not offered', { chainId: 'eip155:1' }, 'invalid_siwx_unsupported_chain'],
    ['issued 6 minutes ago', { issuedAt: new Date(now - 6 * 60_000).toISOString() }, 'invalid_siwx_issued_at_too_old'],
    ['issued in a minute', { issuedAt: new Date(now + 60_000).toISOString() }, 'invalid_siwx_issued_at_in_future'],
    ['expired', { expirationTime: new Date(now - 1000).toISOString() }, 'invalid_siwx_expired'],
    [
      'not valid before tomorrow',
      { notBefore: new Date(now + 86_400_000).toISOString() },
      'invalid_siwx_not_yet_valid',
    ],
  ];
  for (const [name, change, reason] of refusals) {
    test(`refuses a message ${name} (${reason})`, async () => {
      const check = await checkSignInMessage(await signed(change), expected);
      assert.equal(check.kind, 'refused');
      assert.equal(check.kind === 'refused' && check.reason, reason);
    });
  }

  test("refuses a signature by another wallet than the message's address", async () => {
    const forged = { ...(await signed({}, other)), address: account.address };
    const check = await checkSignInMessage(forged, expected);
    assert.equal(check.kind === 'refused' && check.reason, 'invalid_siwx_signature');
  });
});

describe('decodeSignIn', () => {
  const header = (value: string) => ({ read: () => readSignInHeader(value) });

  test('reads the header @x402/extensions encodes, and the same payload as an MCP object', async () => {
    const payload = await signed();
    assert.deepEqual(decodeSignIn(header(encodeSIWxHeader(payload))), payload);
    assert.deepEqual(decodeSignIn({ read: () => payload }), payload);
  });

  const malformed: [string, Parameters<typeof decodeSignIn>[0]][] = [
    ['not base64', header('not base64!')],
    ['not JSON', header(Buffer.from('{nope').toString('base64'))],
    ['not a sign-in payload', header(Buffer.from('{"domain":1}').toString('base64'))],
    ['too large', header('A'.repeat(8 * 1024))],
    ['an MCP value that is no payload', { read: () => ['x'] }],
    ['an MCP value over the size cap', { read: () => ({ domain: 'x'.repeat(4 * 1024) }) }],
  ];
  for (const [name, input] of malformed) {
    test(`refuses a sign-in ${name} with invalid_sign_in_header`, () => {
      assert.throws(
        () => decodeSignIn(input),
        (error: unknown) => error instanceof AppError && error.code === 'invalid_sign_in_header',
      );
    });
  }
});
