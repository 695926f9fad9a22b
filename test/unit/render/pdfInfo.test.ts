import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pdfDate, pdfPageCount, pdfTextString, setPdfInfo } from '../../../src/render/pdfInfo.js';
import { PdfLayoutError, readPdfLayout } from '../../../src/render/pdfXref.js';

/** A minimal PDF laid out like Chromium's: Info first, one classic xref table, no updates. */
function buildPdf(options: { info?: string; pageCount?: number; trailerExtra?: string } = {}): Buffer {
  const pageCount = options.pageCount ?? 2;
  const kids = Array.from({ length: pageCount }, (_, index) => `${4 + index} 0 R`).join(' ');
  const objects = [
    options.info ??
      "<</Title <FEFF0041>\n/Creator (Mozilla/5.0 \\(X11\\) HeadlessChrome/156)\n/Producer (Skia/PDF m156)\n/CreationDate (D:20991231235959+00'00')\n/ModDate (D:20991231235959+00'00')>>",
    '<</Type /Catalog\n/Pages 3 0 R>>',
    `<</Type /Pages\n/Count ${pageCount}\n/Kids [${kids}]>>`,
    ...Array.from({ length: pageCount }, () => '<</Type /Page\n/Parent 3 0 R\n/MediaBox [0 0 612 792]>>'),
  ];
  let body = '%PDF-1.4\n%\xd3\xeb\xe9\xe1\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<</Size ${objects.length + 1}\n/Root 2 0 R\n/Info 1 0 R${options.trailerExtra ?? ''}>>\nstartxref\n${xrefAt}\n%%EOF`;
  return Buffer.from(body, 'latin1');
}

/** Every in-use xref entry must point at its own "n 0 obj", and startxref at "xref". */
function assertConsistent(pdf: Buffer) {
  const layout = readPdfLayout(pdf);
  assert.equal(pdf.toString('latin1', layout.xrefOffset, layout.xrefOffset + 4), 'xref');
  layout.entries.forEach((entry, number) => {
    if (!entry.inUse) return;
    assert.equal(
      pdf.toString('latin1', entry.offset, entry.offset + `${number} 0 obj`.length),
      `${number} 0 obj`,
      `object ${number}`,
    );
  });
}

const INFO = {
  title: 'Invoice INV-1',
  author: 'Northwind Studio GmbH',
  date: '2026-11-02',
  creator: 'invoice-pdf-x402 (Chromium)',
};

describe('setPdfInfo', () => {
  test('replaces the Info dictionary and keeps every offset right', () => {
    const original = buildPdf();
    assertConsistent(original);
    const pdf = setPdfInfo(original, INFO);
    assertConsistent(pdf);
    const text = pdf.toString('latin1');
    assert.ok(text.includes(`/Title ${pdfTextString('Invoice INV-1')}`));
    assert.ok(text.includes(`/Author ${pdfTextString('Northwind Studio GmbH')}`));
    assert.ok(text.includes("/CreationDate (D:20261102000000+00'00')"));
    assert.ok(text.includes("/ModDate (D:20261102000000+00'00')"));
    assert.ok(text.includes('/Producer (Skia/PDF m156)'), 'keeps the producer');
    assert.ok(!text.includes('HeadlessChrome'), 'drops the user agent');
    assert.ok(!text.includes('2099'), 'drops the wall-clock dates');
    assert.ok(text.endsWith('%%EOF\n'));
  });

  test('is deterministic and idempotent', () => {
    const once = setPdfInfo(buildPdf(), INFO);
    assert.deepEqual(setPdfInfo(buildPdf(), INFO), once);
    assert.deepEqual(setPdfInfo(once, INFO), once);
  });

  test('works when the new dictionary is shorter than the old one', () => {
    const long = `<</Title <FEFF${'0041'.repeat(500)}>\n/Producer (Skia/PDF m156)>>`;
    const pdf = setPdfInfo(buildPdf({ info: long }), { ...INFO, title: 'X', author: 'Y' });
    assertConsistent(pdf);
  });

  test('user text cannot break out of its string', () => {
    const pdf = setPdfInfo(buildPdf(), { ...INFO, author: 'Evil) /Producer (x>> endobj', title: '<FEFF>' });
    assertConsistent(pdf);
    const info = pdf.toString('latin1').split('endobj')[0]!;
    assert.equal(info.match(/\/Producer/g)?.length, 1);
    assert.doesNotMatch(info, /Evil/);
  });

  test('refuses layouts it was not written for', () => {
    for (const trailerExtra of ['\n/Prev 123', '\n/Encrypt 9 0 R', '\n/XRefStm 77']) {
      assert.throws(() => setPdfInfo(buildPdf({ trailerExtra }), INFO), PdfLayoutError);
    }
    assert.throws(() => setPdfInfo(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), INFO), PdfLayoutError);
    const xrefStream = Buffer.from(
      '%PDF-1.7\n9 0 obj\n<</Type /XRef>>\nstream\nendstream\nendobj\nstartxref\n9\n%%EOF\n',
      'latin1',
    );
    assert.throws(() => setPdfInfo(xrefStream, INFO), PdfLayoutError);
  });
});

describe('pdfPageCount', () => {
  for (const pages of [1, 2, 13]) {
    test(`reads /Count of the page tree: ${pages}`, () => {
      assert.equal(pdfPageCount(buildPdf({ pageCount: pages })), pages);
      assert.equal(pdfPageCount(setPdfInfo(buildPdf({ pageCount: pages }), INFO)), pages);
    });
  }
});

describe('PDF strings and dates', () => {
  const cases: [string, string][] = [
    ['A', '<FEFF0041>'],
    ['Ä', '<FEFF00C4>'],
    ['￥', '<FEFFFFE5>'],
    ['😀', '<FEFFD83DDE00>'], // a surrogate pair is UTF-16BE as it stands
    ['', '<FEFF>'],
    ['a(b)\\', '<FEFF0061002800620029005C>'],
  ];
  for (const [text, expected] of cases) {
    test(`pdfTextString(${JSON.stringify(text)})`, () => assert.equal(pdfTextString(text), expected));
  }

  test('pdfDate is midnight UTC of the day', () => {
    assert.equal(pdfDate('2026-11-02'), "(D:20261102000000+00'00')");
    assert.throws(() => pdfDate('2026-11-2'), RangeError);
  });
});
