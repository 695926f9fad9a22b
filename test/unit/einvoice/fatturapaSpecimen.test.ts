import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_FATTURAPA_REQUEST } from '../../../src/einvoice/formats/fatturapa/example.js';
import { eInvoiceOperations } from '../../../src/operations/eInvoiceOperations.js';
import { operationContextAt, type PaidAnswer } from '../../../src/operations/operation.js';

const row = eInvoiceOperations(undefined).find((operation) => operation.path === '/v1/e-invoice/fatturapa.xml')!;

const written = async (specimen: boolean) => {
  const input = row.request!.parse(EXAMPLE_FATTURAPA_REQUEST, operationContextAt(new Date('2026-11-26T12:00:00Z')));
  const answer = (await row.handle!(input, { signal: new AbortController().signal, specimen })) as PaidAnswer;
  return answer.body.toString('utf8');
};

// FatturaPA has no test flag and writes Latin text (the dash becomes -): the note is the mark.
test('a FatturaPA paid with test money carries the specimen note first in its Causale; a paid one does not', async () => {
  const specimen = await written(true);
  assert.ok(
    specimen.includes('<Causale>SPECIMEN - paid with test USDC. This is a test document'),
    specimen.slice(0, 2000),
  );
  assert.ok(!(await written(false)).includes('SPECIMEN'));
});
