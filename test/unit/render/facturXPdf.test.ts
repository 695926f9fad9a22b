import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodePdfString, toFacturXPdf, xmpDate } from '../../../src/render/facturX/facturXPdf.js';
import { formatXref, readPdfLayout } from '../../../src/render/pdfXref.js';

/** A minimal single-revision PDF laid out the way Chromium writes them (classic xref from object 0). */
function tinyPdf(options: { catalogExtra?: string; annotation?: string } = {}): Buffer {
  const objects = [
    "<</Title <FEFF0049006E0076> /Author (A \\(B\\)) /Creator (c) /Producer (Skia/PDF m1) /CreationDate (D:20261102000000+00'00') /ModDate (D:20261102000000+00'00')>>",
    `<</Type /Catalog /Pages 3 0 R${options.catalogExtra ?? ''}>>`,
    `<</Type /Pages /Count 1 /Kids [4 0 R]>>`,
    `<</Type /Page /Parent 3 0 R /MediaBox [0 0 10 10]${options.annotation ? ' /Annots [5 0 R]' : ''}>>`,
    ...(options.annotation ? [options.annotation] : []),
  ];
  let body = '%PDF-1.4\n%\xD3\xEB\xE9\xE1\n';
  const entries = [{ offset: 0, generation: 65535, inUse: false }];
  objects.forEach((object, index) => {
    entries.push({ offset: Buffer.byteLength(body, 'latin1'), generation: 0, inUse: true });
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `${formatXref(entries)}trailer\n<</Size ${entries.length}\n/Root 2 0 R\n/Info 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const xml = Buffer.from('<?xml version="1.0"?><x/>');
const finish = (pdf: Buffer) => toFacturXPdf(pdf, { xml, conformanceLevel: 'EN 16931' });

describe('toFacturXPdf', () => {
  test('every xref offset points at its object after the catalog grew; the trailer has Size, Root, Info and ID', () => {
    const out = finish(tinyPdf());
    const layout = readPdfLayout(out);
    assert.equal(layout.entries.length, 10);
    layout.entries.forEach((entry, number) => {
      if (entry.inUse)
        assert.equal(out.toString('latin1', entry.offset, entry.offset + `${number} 0 obj`.length), `${number} 0 obj`);
    });
    assert.match(layout.trailer, /^<<\/Size 10 \/Root 2 0 R \/Info 1 0 R \/ID \[<[0-9A-F]{32}> <[0-9A-F]{32}>\]>>$/);
    assert.match(
      out.toString('latin1'),
      /2 0 obj\n<<\/Type \/Catalog \/Pages 3 0 R \/Metadata 5 0 R \/OutputIntents \[7 0 R\] \/AF \[9 0 R\] \/Names <<\/EmbeddedFiles <<\/Names \[\(factur-x\.xml\) 9 0 R\]>>>>>>/,
    );
    assert.equal(out.toString('latin1', 0, 9), '%PDF-1.7\n');
    assert.ok(finish(tinyPdf()).equals(out), 'deterministic');
  });

  test('the XMP mirrors the Info dictionary, whatever its string encoding', () => {
    const out = finish(tinyPdf()).toString('utf8');
    assert.match(out, /<rdf:li xml:lang="x-default">Inv<\/rdf:li>/);
    assert.match(out, /<dc:creator><rdf:Seq><rdf:li>A \(B\)<\/rdf:li><\/rdf:Seq><\/dc:creator>/);
    assert.match(out, /<pdf:Producer>Skia\/PDF m1<\/pdf:Producer>/);
    assert.match(out, /<xmp:CreateDate>2026-11-02T00:00:00\+00:00<\/xmp:CreateDate>/);
  });

  test('refuses a catalog it would have to merge into, and unprintable annotations', () => {
    assert.throws(() => finish(tinyPdf({ catalogExtra: ' /Metadata 9 0 R' })), /already has \/Metadata/);
    assert.throws(() => finish(tinyPdf({ catalogExtra: ' /Names <<>>' })), /already has \/Names/);
    assert.throws(
      () => finish(tinyPdf({ annotation: '<</Type /Annot /Subtype /Link /Rect [0 0 1 1]>>' })),
      /not marked printable/,
    );
    assert.throws(
      () => finish(tinyPdf({ annotation: '<</Type /Annot /Subtype /Link /F 6 /Rect [0 0 1 1]>>' })),
      /not marked printable/,
    );
    assert.doesNotThrow(() => finish(tinyPdf({ annotation: '<</Type /Annot /Subtype /Link /F 4 /Rect [0 0 1 1]>>' })));
  });

  test('PDF strings and dates', () => {
    assert.equal(decodePdfString('<FEFF00E9D83DDE00>'), 'é😀');
    assert.equal(decodePdfString('(a\\)b\\\\c\\101)'), 'a)b\\cA');
    assert.equal(xmpDate("(D:20260102030405-05'30')"), '2026-01-02T03:04:05-05:30');
    assert.throws(() => xmpDate(undefined), /no usable date/);
  });
});
