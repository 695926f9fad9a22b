import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { INBOUND_PDF_BOUNDS } from '../../../src/einvoice/inbound/limits.js';
import { readInbound } from '../../../src/einvoice/inbound/readInbound.js';
import { InputRejected } from '../../../src/errors.js';
import { pdfEmbeddedFiles } from '../../../src/pdf/pdfEmbeddedFiles.js';
import { embeddedFilePdf, type EmbeddedPdfOptions } from '../../fixtures/embeddedFilePdfs.js';

/**
 * A hybrid PDF's embedded files read as ISO 32000 defines them (the EmbeddedFiles name tree, /AF,
 * /EF /UF or /F), in PDFs built to reproduce what a byte scan missed in real ZUGFeRD 1.0 files:
 * the name tree inside a compressed object stream, no /Type /EmbeddedFile on the stream (or the
 * name written with a #xx escape). poppler's pdfdetach must find the same file where it reads the
 * name tree and /EF /F (it reads neither /AF nor a file under /EF /UF alone).
 */
const xml = readFileSync(new URL('../../fixtures/zugferd1/comfort-two-rates.xml', import.meta.url));
let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'pdf-embedded-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

const variants: EmbeddedPdfOptions[] = [];
for (const objectStream of [false, true])
  for (const streamType of ['EmbeddedFile', 'none', 'escaped'] as const)
    for (const efKey of ['F', 'UF'] as const)
      for (const via of ['names', 'af'] as const)
        variants.push({ objectStream, streamType, efKey, via, flate: efKey === 'F' });

function pdfdetach(pdf: Buffer): Buffer | undefined {
  const path = join(dir, 'in.pdf');
  writeFileSync(path, pdf);
  const list = execFileSync('pdfdetach', ['-list', path]).toString();
  if (!list.startsWith('1 embedded files')) return undefined;
  execFileSync('pdfdetach', ['-save', '1', '-o', join(dir, 'out'), path]);
  return readFileSync(join(dir, 'out'));
}

test('every way a producer wrote the file is read, the same bytes pdfdetach saves', () => {
  for (const options of variants) {
    const pdf = embeddedFilePdf(xml, options);
    const label = JSON.stringify(options);
    assert.deepEqual(pdfEmbeddedFiles(pdf, INBOUND_PDF_BOUNDS), [xml], label);
    assert.equal(readInbound(pdf, 'pdf').invoice.number, 'ZF1-2026-007', label);
    // poppler reads the name tree, not /AF, and saves only what /EF /F names.
    if (options.via === 'names' && options.efKey === 'F') assert.deepEqual(pdfdetach(pdf), xml, `pdfdetach: ${label}`);
  }
});

test('what the byte scan missed is there: no /Type on the stream, the name tree compressed', () => {
  const pdf = embeddedFilePdf(xml, { objectStream: true, streamType: 'none', efKey: 'F', via: 'names', flate: true });
  assert.ok(!pdf.includes('/EmbeddedFiles'), 'the name tree is only in the compressed object stream');
  assert.ok(!pdf.includes('/Type /EmbeddedFile'));
  assert.deepEqual(pdfEmbeddedFiles(pdf, INBOUND_PDF_BOUNDS), [xml]);
});

const codeOf = (pdf: Uint8Array) => {
  try {
    readInbound(pdf, 'pdf');
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return error.code;
  }
  return 'read';
};

test('a PDF whose only attachment is no e-invoice keeps its clear refusal', () => {
  const options = { objectStream: true, streamType: 'none', efKey: 'UF', via: 'names', flate: true } as const;
  assert.equal(
    codeOf(embeddedFilePdf(Buffer.from('just a note'), { ...options, name: 'note.txt' })),
    'pdf_no_einvoice',
  );
  assert.equal(codeOf(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')), 'pdf_no_einvoice');
});

test('the refusal names the root of an embedded XML that is no e-invoice: an order, the ZUGFeRD release candidate of 2014', () => {
  const options = { objectStream: false, streamType: 'EmbeddedFile', efKey: 'F', via: 'names', flate: true } as const;
  const messageOf = (file: string) => {
    try {
      readInbound(embeddedFilePdf(Buffer.from(file), options), 'pdf');
    } catch (error) {
      assert.ok(error instanceof InputRejected);
      assert.equal(error.code, 'pdf_no_einvoice');
      return error.message;
    }
    assert.fail('read');
  };
  // As Mustang's first ZUGFeRD PDFs (May 2014) embed it, a byte-order mark and a comment before the root.
  const candidate =
    '\uFEFF<?xml version="1.0"?>\n<!-- RC --><rsm:Invoice xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:rsm="urn:un:unece:uncefact:data:standard:CBFBUY:5"><rsm:X/></rsm:Invoice>';
  assert.match(
    messageOf(candidate),
    /root is Invoice \(urn:un:unece:uncefact:data:standard:CBFBUY:5\): the release candidate of ZUGFeRD published before ZUGFeRD 1\.0/,
  );
  assert.match(
    messageOf('<Order xmlns="urn:example:order"><Id>1</Id></Order>'),
    /It embeds XML whose root is Order \(urn:example:order\)\.$/,
  );
  assert.doesNotMatch(messageOf('just a note'), /It embeds/);
});

test('bounds hold: a decompression bomb, a name tree that loops, 20,000 objects', () => {
  const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
  const cases: [string, Buffer][] = [
    ['a 64 MB embedded file', embeddedFilePdf(Buffer.alloc(64 * 1024 * 1024), { objectStream: true, streamType: 'none', efKey: 'F', via: 'names', flate: true })],
    ['an object stream that inflates to 64 MB', Buffer.concat([
      Buffer.from(`%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`),
      bomb, Buffer.from('\nendstream\nendobj\n'),
    ])],
    ['a name tree whose kid is itself', Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Names << /EmbeddedFiles 2 0 R >> >>\nendobj\n2 0 obj\n<< /Kids [2 0 R 2 0 R] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n')],
    ['references that name each other', Buffer.from('%PDF-1.4\n1 0 obj\n2 0 R\nendobj\n2 0 obj\n1 0 R\nendobj\ntrailer\n<< /Root 1 0 R >>\n')],
    ['30,000 objects', Buffer.from(`%PDF-1.4\n${Array.from({ length: 30_000 }, (_, num) => `${num} 0 obj\n<< /EF << /F ${num} 0 R >> >>\nendobj\n`).join('')}`)],
    ['dictionaries nested 5,000 deep', Buffer.from(`%PDF-1.4\n1 0 obj\n<< /EF ${'<< /A '.repeat(5000)}\nendobj\n`)],
  ]; // prettier-ignore
  for (const [name, pdf] of cases) {
    const started = performance.now();
    assert.equal(codeOf(pdf), 'pdf_no_einvoice', name);
    const took = performance.now() - started;
    assert.ok(took < 2000, `${name}: ${took.toFixed(0)} ms`);
  }
});
