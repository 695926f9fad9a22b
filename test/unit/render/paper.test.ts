import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CURRENCY_CODES } from '../../../src/invoice/currencies.js';
import { paperFor } from '../../../src/render/paper.js';

const LETTER = new Set(['USD', 'CAD', 'MXN']);

for (const currency of CURRENCY_CODES) {
  test(`${currency}: auto is ${LETTER.has(currency) ? 'Letter' : 'A4'}, and a forced size wins`, () => {
    assert.equal(paperFor(currency, 'auto'), LETTER.has(currency) ? 'Letter' : 'A4');
    assert.equal(paperFor(currency, 'A4'), 'A4');
    assert.equal(paperFor(currency, 'Letter'), 'Letter');
  });
}
