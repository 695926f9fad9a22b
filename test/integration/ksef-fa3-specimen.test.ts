import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { prepareBatch } from '../../src/batch/batchRequest.js';
import { produceBatch } from '../../src/batch/produceBatch.js';
import { specimenBatch } from '../../src/operations/specimenBatch.js';
import { specimenFa3 } from '../../src/einvoice/formats/ksef/fa3Specimen.js';
import { ksef as KSEF_FORMAT } from '../../src/einvoice/formats/ksef/format.js';
import { writeOwnSyntax } from '../../src/einvoice/ownSyntax.js';
import { readInbound } from '../../src/einvoice/inbound/readInbound.js';
import { SPECIMEN_NOTE } from '../../src/invoice/specimen.js';
import { eInvoiceOperations } from '../../src/operations/eInvoiceOperations.js';
import { KSEF_EXAMPLES } from '../fixtures/ksefExamples.js';
import { oracleMissing, runCheckXml } from '../support/einvoiceOracle.js';
import { zipEntries } from '../support/zipEntries.js';

/**
 * An FA(3) paid with test money is a specimen: the specimen note is the first StopkaFaktury (FA(3)
 * has no test flag), whether the invoice had a footer or not; the marked file still passes the
 * official schema and reads back with the note first.
 */
const NOW = new Date('2026-03-02T10:00:00Z');
const withNotes = { ...KSEF_EXAMPLES['ksef-vat-example'], notes: 'Dziękujemy za zakupy.' };
const withoutNotes = { ...KSEF_EXAMPLES['ksef-vat-example'], notes: undefined };

test('the note is the first footer text, with or without the invoice’s own notes', () => {
  for (const body of [withNotes, withoutNotes]) {
    const marked = specimenFa3(writeOwnSyntax(KSEF_FORMAT, body, NOW).written.file);
    const { invoice } = readInbound(marked, 'xml');
    assert.equal(invoice.notes.filter((note) => note.subject === undefined)[0]?.text, SPECIMEN_NOTE);
    if (body.notes) assert.ok(invoice.notes.some((note) => note.text === body.notes));
  }
});

test('the single route marks the file only when paid with test money', () => {
  const route = eInvoiceOperations(undefined).find((operation) => operation.path === '/v1/e-invoice/ksef.xml')!;
  const parsed = writeOwnSyntax(KSEF_FORMAT, withNotes, NOW);
  const answer = (specimen: boolean) =>
    (route.handle as (input: unknown, call: { signal: AbortSignal; specimen: boolean }) => { body: Buffer })(parsed, {
      signal: AbortSignal.timeout(10_000),
      specimen,
    }).body.toString('utf8');
  assert.ok(answer(true).includes(SPECIMEN_NOTE));
  assert.ok(!answer(false).includes(SPECIMEN_NOTE));
});

test('a ksef batch paid with test money: every file carries the note once (the specimen hook of the registry writer)', async () => {
  const batch = prepareBatch({ format: 'ksef', invoices: [withNotes, KSEF_EXAMPLES['ksef-advance']] });
  const [marked] = specimenBatch(batch, undefined);
  const specimen = zipEntries((await produceBatch(undefined, marked)).body).filter(([name]) => name.endsWith('.xml'));
  assert.equal(specimen.length, 2);
  for (const [name, xml] of specimen) assert.equal(xml.split(SPECIMEN_NOTE).length, 2, name);
  const paid = zipEntries((await produceBatch(undefined, batch)).body).filter(([name]) => name.endsWith('.xml'));
  for (const [name, xml] of paid) assert.ok(!xml.includes(SPECIMEN_NOTE), name);
});

test('check-xml ksef-fa3 accepts the marked files', { skip: oracleMissing }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ksef-fa3-specimen-'));
  try {
    writeFileSync(join(dir, 'with-notes.xml'), specimenFa3(writeOwnSyntax(KSEF_FORMAT, withNotes, NOW).written.file));
    writeFileSync(
      join(dir, 'without-notes.xml'),
      specimenFa3(writeOwnSyntax(KSEF_FORMAT, withoutNotes, NOW).written.file),
    );
    const result = runCheckXml('ksef-fa3', dir);
    assert.equal(result.files, 2, result.output.slice(0, 2000));
    assert.equal(result.fatal, 0, result.output.slice(0, 4000));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
