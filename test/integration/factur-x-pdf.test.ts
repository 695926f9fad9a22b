import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { prepareBatch } from '../../src/batch/batchRequest.js';
import { produceBatch } from '../../src/batch/produceBatch.js';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../src/einvoice/example.js';
import { prepareEInvoice, prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { PROFILES, type EInvoiceProfile } from '../../src/einvoice/profiles.js';
import { preparePrintedEInvoice } from '../../src/einvoice/printing.js';
import { EXAMPLE_VERIFACTU_REQUEST } from '../../src/einvoice/formats/verifactu/example.js';
import { checkVerifactuRequest } from '../../src/einvoice/formats/verifactu/request.js';
import { DEFAULT_SYSTEM } from '../../src/einvoice/formats/verifactu/system.js';
import { pdfToPngs } from '../fixtures/qrPages.js';
import { produceFacturX } from '../../src/operations/eInvoiceOperations.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { EINVOICE_EXAMPLES } from '../fixtures/eInvoiceExamples.js';
import { pdfInfo } from '../fixtures/pdfTools.js';

/**
 * The PDF/A-3b properties of a Factur-X file, each checked on produced files: with Poppler
 * (pdfinfo, pdfdetach, pdffonts) as an independent reader, and a small object reader below for the
 * dictionaries Poppler does not print. PDFBox Preflight (PDF/A-1b only) is the smoke test.
 */
let renderer: Renderer;
let dir: string;
const files: Record<string, { pdf: Buffer; xml: Buffer; profile: EInvoiceProfile }> = {};
// The national hybrids: ZUGFeRD's XRECHNUNG profile (xrechnung.xml) and France's Factur-X EN 16931.
const CASES = {
  example: EXAMPLE_EINVOICE,
  'credit-note': EINVOICE_EXAMPLES['credit-note']!,
  'two-hundred-lines': EINVOICE_EXAMPLES['two-hundred-lines']!,
  'jpy-zero-digits': EINVOICE_EXAMPLES['jpy-zero-digits']!,
  xrechnung: EXAMPLE_PROFILE_REQUESTS.xrechnung,
  fr: EXAMPLE_PROFILE_REQUESTS.fr,
  'stamped-modern': { ...EXAMPLE_EINVOICE, design: 'modern', stamp: 'paid' },
  // Spain: the verifactu object prints AEAT's QR tributario on the Factur-X PDF too (EN 16931 asks the due date).
  'verifactu-qr': {
    ...EXAMPLE_VERIFACTU_REQUEST,
    due_date: '2026-12-30',
    payment: { iban: 'ES9121000418450200051332' },
  },
};
const NOW = '2026-12-01T09:30:00.000Z';

before(
  async () => {
    renderer = await createRenderer({ poolSize: 1 });
    dir = mkdtempSync(join(tmpdir(), 'factur-x-'));
    for (const [name, body] of Object.entries(CASES)) {
      // The route's own parse: the profile's checks, then what a format's object prints.
      const { prepared, profile } = preparePrintedEInvoice(body, { now: NOW });
      files[name] = {
        pdf: (await produceFacturX(renderer, prepared, undefined, undefined, profile)).body,
        xml: eInvoiceXml(prepared, 'cii', profile),
        profile,
      };
      writeFileSync(join(dir, `${name}.pdf`), files[name].pdf);
    }
  },
  { timeout: 120_000 },
);
after(async () => {
  await renderer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { encoding: 'utf8', timeout: 60_000, env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } });

/** The text of object `n` (dictionary, and the raw stream bytes when it has one), found by its header. */
function pdfObject(pdf: Buffer, n: number): { dict: string; stream: Buffer | undefined } {
  const text = pdf.toString('latin1');
  const match = new RegExp(`(?:^|\\n)${n} 0 obj\\s*`).exec(text);
  assert.ok(match, `object ${n} exists`);
  const start = match.index + match[0].length;
  const end = text.indexOf('endobj', start);
  const body = text.slice(start, end);
  const streamAt = body.indexOf('stream\n');
  if (streamAt < 0) return { dict: body.trim(), stream: undefined };
  const dict = body.slice(0, streamAt).trim();
  const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
  return { dict, stream: pdf.subarray(start + streamAt + 7, start + streamAt + 7 + length) };
}

const ref = (dict: string, key: string) => Number(new RegExp(`/${key}\\s*\\[?\\s*(\\d+) 0 R`).exec(dict)?.[1]);

function catalogOf(pdf: Buffer) {
  const trailer = pdf.toString('latin1', pdf.lastIndexOf('trailer'));
  return { trailer, catalog: pdfObject(pdf, ref(trailer, 'Root')).dict };
}

describe('PDF/A-3b and Factur-X properties of the produced file', () => {
  for (const name of Object.keys(CASES)) {
    test(`${name}`, { timeout: 60_000 }, () => {
      const { pdf, xml, profile: invoiceProfile } = files[name]!;
      const file = join(dir, `${name}.pdf`);
      const hybrid = PROFILES[invoiceProfile].hybrid!;
      const fileName = hybrid.fileName.replace('.', '\\.');

      // Header, version, no encryption, a trailer ID of two equal 16-byte strings.
      assert.equal(pdf.toString('latin1', 0, 9), '%PDF-1.7\n');
      assert.ok(
        pdf.subarray(10, 14).every((byte) => byte > 127),
        'binary comment after the header',
      );
      const { trailer, catalog } = catalogOf(pdf);
      assert.match(trailer, /\/ID \[<([0-9A-F]{32})> <\1>\]/);
      assert.doesNotMatch(trailer, /\/Encrypt/);
      const info = pdfInfo(pdf);
      assert.equal(info.Encrypted, 'no');
      assert.equal(info['PDF version'], '1.7');

      // The embedded XML: named factur-x.xml (xrechnung.xml for XRECHNUNG), the exact CII bytes, Alternative, text/xml, in /AF.
      assert.equal(run('pdfdetach', ['-list', file]).trim(), `1 embedded files\n1: ${hybrid.fileName}`);
      const saved = join(dir, `${name}-attachment.xml`);
      run('pdfdetach', ['-save', '1', '-o', saved, file]);
      assert.ok(readFileSync(saved).equals(xml), 'the attachment is the CII XML, byte for byte');
      const fileSpec = pdfObject(pdf, ref(catalog, 'AF')).dict;
      assert.match(catalog, /\/AF \[\d+ 0 R\]/);
      assert.match(fileSpec, /\/Type \/Filespec/);
      assert.match(fileSpec, new RegExp(`/F \\(${fileName}\\) /UF \\(${fileName}\\)`));
      assert.match(fileSpec, /\/AFRelationship \/Alternative/);
      const embedded = pdfObject(pdf, Number(/\/EF <<\/F (\d+) 0 R/.exec(fileSpec)?.[1]));
      assert.match(embedded.dict, /\/Type \/EmbeddedFile \/Subtype \/text#2Fxml/);
      assert.match(embedded.dict, new RegExp(`/Size ${xml.length}\\b`));
      assert.match(
        embedded.dict,
        new RegExp(`/CheckSum <${createHash('md5').update(xml).digest('hex').toUpperCase()}>`),
        'CheckSum = MD5 of the XML',
      );
      const infoModDate = /\/ModDate (\(D:[^)]*\))/.exec(pdfObject(pdf, ref(trailer, 'Info')).dict)?.[1];
      assert.ok(
        infoModDate && embedded.dict.includes(`/ModDate ${infoModDate}`),
        `the attachment's ModDate is the Info's: ${embedded.dict}`,
      );
      assert.match(catalog, new RegExp(`/Names <</EmbeddedFiles <</Names \\[\\(${fileName}\\) \\d+ 0 R\\]>>>>`));

      // The sRGB output intent with a complete ICC profile.
      const intent = pdfObject(pdf, ref(catalog, 'OutputIntents')).dict;
      assert.match(intent, /\/Type \/OutputIntent \/S \/GTS_PDFA1/);
      const profile = pdfObject(pdf, ref(intent, 'DestOutputProfile'));
      assert.match(profile.dict, /\/N 3/);
      const icc = inflateSync(profile.stream!);
      assert.equal(icc.readUInt32BE(0), icc.length, 'ICC size field = stream length');
      assert.equal(icc.toString('latin1', 36, 40), 'acsp');
      assert.equal(icc.toString('latin1', 12, 24), 'mntrRGB XYZ ');
      assert.equal(icc.readUInt32BE(8) >>> 24, 2, 'ICC version 2');
      const tags = icc.readUInt32BE(128);
      const signatures = Array.from({ length: tags }, (_, at) => icc.toString('latin1', 132 + 12 * at, 136 + 12 * at));
      assert.deepEqual(signatures.sort(), ['bTRC', 'bXYZ', 'cprt', 'desc', 'gTRC', 'gXYZ', 'rTRC', 'rXYZ', 'wtpt']);
      for (let at = 0; at < tags; at++) {
        const offset = icc.readUInt32BE(136 + 12 * at);
        const size = icc.readUInt32BE(140 + 12 * at);
        assert.ok(offset + size <= icc.length, `tag ${signatures[at]} inside the profile`);
      }

      // XMP: PDF/A-3B, the Factur-X properties and their extension schema, consistent with Info.
      const metadata = pdfObject(pdf, ref(catalog, 'Metadata'));
      assert.match(metadata.dict, /\/Type \/Metadata \/Subtype \/XML/);
      assert.doesNotMatch(metadata.dict, /\/Filter/, 'the XMP stays readable without decoding');
      const xmp = run('pdfinfo', ['-meta', file]);
      assert.equal(xmp.replace(/\n$/, ''), metadata.stream!.toString('utf8'), 'Poppler reads our XMP packet');
      assert.match(xmp, /<pdfaid:part>3<\/pdfaid:part>/);
      assert.match(xmp, /<pdfaid:conformance>B<\/pdfaid:conformance>/);
      assert.match(xmp, /<fx:DocumentType>INVOICE<\/fx:DocumentType>/);
      assert.ok(xmp.includes(`<fx:DocumentFileName>${hybrid.fileName}</fx:DocumentFileName>`));
      assert.match(xmp, /<fx:Version>1.0<\/fx:Version>/);
      assert.ok(xmp.includes(`<fx:ConformanceLevel>${hybrid.conformanceLevel}</fx:ConformanceLevel>`));
      assert.match(
        xmp,
        /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/,
      );
      for (const property of ['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel']) {
        assert.match(xmp, new RegExp(`<pdfaProperty:name>${property}</pdfaProperty:name>`));
      }
      const isoInfo = pdfInfo(pdf);
      assert.ok(xmp.includes(`<rdf:li xml:lang="x-default">${escapeXml(isoInfo.Title!)}</rdf:li>`), 'dc:title = Title');
      assert.ok(
        xmp.includes(`<dc:creator><rdf:Seq><rdf:li>${escapeXml(isoInfo.Author!)}</rdf:li></rdf:Seq></dc:creator>`),
        'dc:creator = Author',
      );
      assert.ok(
        xmp.includes(`<xmp:CreatorTool>${escapeXml(isoInfo.Creator!)}</xmp:CreatorTool>`),
        'CreatorTool = Creator',
      );
      assert.ok(xmp.includes(`<pdf:Producer>${escapeXml(isoInfo.Producer!)}</pdf:Producer>`), 'Producer');
      const infoDict = pdfObject(pdf, ref(trailer, 'Info')).dict;
      const isoDate = (key: string) => {
        const [, y, m, d, hh, mm, ss, zone] =
          new RegExp(`/${key} \\(D:(\\d{4})(\\d{2})(\\d{2})(\\d{2})(\\d{2})(\\d{2})\\+00'00'\\)`).exec(infoDict) ?? [];
        assert.ok(y, `${key} in Info: ${infoDict}`);
        return `${y}-${m}-${d}T${hh}:${mm}:${ss}+00:00${zone ?? ''}`;
      };
      assert.ok(
        xmp.includes(`<xmp:CreateDate>${isoDate('CreationDate')}</xmp:CreateDate>`),
        'CreateDate = CreationDate',
      );
      assert.ok(xmp.includes(`<xmp:ModifyDate>${isoDate('ModDate')}</xmp:ModifyDate>`), 'ModifyDate = ModDate');

      // Every font embedded: TrueType subsets, and Type 3 fonts (Skia draws some glyphs, e.g. of CJK
      // fallback fonts, as Type 3: their glyph programs are in the file by nature).
      const fonts = run('pdffonts', [file])
        .split('\n')
        .slice(2)
        .filter((line) => line.trim() !== '');
      assert.ok(fonts.length > 0);
      for (const line of fonts)
        assert.match(
          line,
          /\s(?:CID TrueType|TrueType|Type 3)\s.*\syes\s+(?:yes|no)\s+(?:yes|no)\s+\d+\s+0$/,
          `embedded: ${line}`,
        );
    });
  }

  test('the same request gives the same bytes', { timeout: 60_000 }, async () => {
    const again = await produceFacturX(renderer, prepareEInvoice(EXAMPLE_EINVOICE));
    assert.ok(again.body.equals(files.example!.pdf));
    const { prepared, profile } = prepareProfiledEInvoice(EXAMPLE_PROFILE_REQUESTS.xrechnung);
    assert.ok(
      (await produceFacturX(renderer, prepared, undefined, undefined, profile)).body.equals(files.xrechnung!.pdf),
      'XRECHNUNG too',
    );
  });

  test('a factur-x batch writes each item under its own profile: the same bytes as the single route', async () => {
    const batch = prepareBatch({
      format: 'factur-x',
      invoices: [EXAMPLE_PROFILE_REQUESTS.xrechnung, EXAMPLE_PROFILE_REQUESTS.fr],
    });
    const zip = await produceBatch(renderer, batch);
    const stored = (name: string) => zip.body.includes(files[name]!.pdf);
    assert.ok(
      stored('xrechnung') && stored('fr'),
      'both hybrids stored in the ZIP byte for byte (PDFs are stored, not deflated)',
    );
  });

  test('the national hybrids carry their profile: XRECHNUNG with xrechnung.xml, France as Factur-X EN 16931', () => {
    assert.match(files.xrechnung!.pdf.toString('latin1'), /<fx:ConformanceLevel>XRECHNUNG<\/fx:ConformanceLevel>/);
    assert.match(
      files.xrechnung!.xml.toString('utf8'),
      /urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.0/,
    );
    assert.match(files.fr!.pdf.toString('latin1'), /<fx:DocumentFileName>factur-x\.xml<\/fx:DocumentFileName>/);
    assert.match(files.fr!.xml.toString('utf8'), /<ram:SubjectCode>PMT<\/ram:SubjectCode>/);
    // The legal notes are printed on the French PDF as well, not only carried in its XML.
    const text = run('pdftotext', ['-layout', join(dir, 'fr.pdf'), '-']);
    assert.match(text, /Indemnité forfaitaire pour frais de recouvrement/);
    assert.match(text, /Escompte de 2 % pour paiement sous 10 jours/);
  });

  test("a verifactu object prints the record's QR tributario first, the EPC payment code after it", () => {
    const { record } = checkVerifactuRequest(CASES['verifactu-qr'], {
      system: DEFAULT_SYSTEM,
      environment: 'production',
      now: new Date(NOW),
    });
    assert.ok(record.kind === 'alta');
    const [page] = pdfToPngs(files['verifactu-qr']!.pdf, 150);
    const codes = [
      ...execFileSync('zbarimg', ['--xml', '-q', '-'], { input: page, encoding: 'utf8' }).matchAll(
        /<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g,
      ),
    ].map((match) => match[1]!);
    assert.equal(codes.length, 2, codes.join('\n'));
    assert.ok(codes.includes(record.qrUrl), codes.join('\n'));
    assert.ok(
      codes.some((code) => code.startsWith('BCD\n')),
      'the EPC code is printed too',
    );
    const text = run('pdftotext', ['-f', '1', '-l', '1', '-layout', join(dir, 'verifactu-qr.pdf'), '-']);
    assert.ok(text.indexOf('QR tributario:') < text.indexOf('VERI*FACTU'), text);
    assert.ok(text.indexOf('VERI*FACTU') < text.indexOf('Ejemplo Soluciones SL'), 'above the masthead');
  });
});

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * PDFBox Preflight checks PDF/A-1b only. Its findings that PDF/A-3 itself lifts are expected:
 * embedded files (1.2.9, 1.4.7: PDF/A-1 forbids them, PDF/A-3 requires this one), CIDSet (3.1.11:
 * required for subset CID fonts by PDF/A-1 only; ISO 19005-2/3 made it optional) and the part
 * number (7.11.2: part must be 1). Anything else (trailer ID, XMP syntax or Info consistency, output
 * intent and ICC profile, font embedding, stream syntax) would be a real fault.
 */
const PREFLIGHT_JARS = [
  'preflight',
  'pdfbox2',
  'fontbox2',
  'xmpbox',
  'commons-logging',
  'javax.activation',
  'jaxb-api',
].map((name) => `/usr/share/java/${name}.jar`);
const PDF_A1_ONLY = [
  /^1\.2\.9 : .*EmbeddedFile/,
  /^1\.4\.7 : .*EmbeddedFile/,
  /^3\.1\.11 : .*CIDSet entry is missing/,
  /^7\.11\.2 : .*part must be 1/,
];
const preflightMissing = PREFLIGHT_JARS.find((jar) => !existsSync(jar));

describe(
  'PDFBox Preflight (PDF/A-1b) smoke test',
  {
    skip: preflightMissing
      ? `${preflightMissing} missing: node scripts/setup.mjs start test installs libpdfbox2-java`
      : false,
  },
  () => {
    for (const name of Object.keys(CASES)) {
      test(`${name}: only the findings PDF/A-3 lifts`, { timeout: 60_000 }, () => {
        const result = spawnSync(
          'java',
          ['-cp', PREFLIGHT_JARS.join(':'), 'org.apache.pdfbox.preflight.Validator_A1b', join(dir, `${name}.pdf`)],
          { encoding: 'utf8', timeout: 60_000 },
        );
        const findings = result.stdout.split('\n').filter((line) => /^\d+\.\d+(\.\d+)? : /.test(line));
        assert.ok(findings.length > 0, `Preflight ran: ${result.stdout}${result.stderr}`);
        const unexpected = findings.filter((line) => !PDF_A1_ONLY.some((pattern) => pattern.test(line)));
        assert.deepEqual(unexpected, [], result.stdout);
        assert.ok(
          findings.some((line) => line.startsWith('7.11.2')),
          'it read our XMP (part 3)',
        );
      });
    }
  },
);
