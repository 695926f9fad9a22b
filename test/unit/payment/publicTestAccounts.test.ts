import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devAccount } from '../../../src/payment/local/devAccounts.js';
import { PUBLIC_TEST_ACCOUNTS, publicTestAccountIndex } from '../../../src/payment/publicTestAccounts.js';

test('the list is the first 20 accounts derived from the public test mnemonic', () => {
  assert.equal(PUBLIC_TEST_ACCOUNTS.length, 20);
  PUBLIC_TEST_ACCOUNTS.forEach((address, index) =>
    assert.equal(address, devAccount(index).address, `account ${index}`),
  );
});

test('lookup ignores letter case and knows nothing else', () => {
  assert.equal(publicTestAccountIndex('0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266'), 0);
  assert.equal(publicTestAccountIndex(devAccount(10).address.toLowerCase()), 10);
  assert.equal(publicTestAccountIndex(devAccount(20).address), undefined);
  assert.equal(publicTestAccountIndex('0x209693Bc6afc0C5328bA36FaF03C514EF312287C'), undefined);
});
