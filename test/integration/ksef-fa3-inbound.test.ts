import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ksef as KSEF_FORMAT } from '../../src/einvoice/formats/ksef/format.js';
import { writeOwnSyntax } from '../../src/einvoice/ownSyntax.js';
import { KSEF_EXAMPLE } from '../../src/einvoice/formats/ksef/ksefExample.js';
import { withKsefChecksum } from '../../src/einvoice/formats/ksef/ksefNumber.js';
import { readForRender } from '../../src/einvoice/inbound/readInboundRequest.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { EINVOICE_ORACLE } from '../support/einvoiceOracle.js';
import type { JsonAnswer } from '../support/json.js';
import { startRenderingApp, type TestApp } from '../support/testApp.js';
import { needsShared } from '../support/sharedFolder.js';

/**
 * Received FA(3) documents: inspect reads the ministry's 25 examples with the document's own P_15 as
 * the grand total; render.pdf prints an FA(3) with its KSeF verification code (KOD I), whose link
 * zbarimg decodes to the seller NIP, P_1 and the SHA-256 of the bytes as sent, captioned with the
 * checked KSeF number or OFFLINE; hostile XML is refused before anything is read.
 */
const EXAMPLES = join(EINVOICE_ORACLE, 'ksef', 'examples');
const examplesMissing = needsShared('ksef/examples');
const zbarMissing = spawnSync('zbarimg', ['--version']).status === 0 ? false : 'zbarimg is not installed';

let app: TestApp;
before(async () => (app = await startRenderingApp()), { timeout: 60_000 });
after(async () => await app?.close());

/**
 * A POST on a connection of its own: fetch would reuse a kept-alive socket that the server may be
 * closing after the seconds a QR decode takes between two requests.
 */
const post = (path: string, body: Uint8Array | string, type = 'application/xml'): Promise<Response> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(
      `${app.url}${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': type }, timeout: 60_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 0 })));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body);
  });

const OWN = writeOwnSyntax(KSEF_FORMAT, KSEF_EXAMPLE, new Date('2026-03-02T10:00:00Z')).written.file;
const SELLER_NIP = '5250000009';

describe('inspect', { skip: examplesMissing }, () => {
  test('reads every official example with the document’s own P_15 as its grand total', async () => {
    const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.xml'));
    assert.equal(files.length, 25);
    for (const name of files) {
      const bytes = readFileSync(join(EXAMPLES, name));
      const response = await post('/v1/e-invoice/inspect', bytes);
      const answer = (await response.json()) as JsonAnswer;
      assert.equal(response.status, 200, `${name}: ${JSON.stringify(answer).slice(0, 300)}`);
      assert.equal(answer.syntax, 'fa3', name);
      assert.equal(answer.customization.name, 'Poland KSeF FA(3)', name);
      const p15 = /<P_15>([^<]*)<\/P_15>/.exec(bytes.toString('utf8'))![1];
      assert.equal(Number(answer.totals.document.grand_total), Number(p15), name);
      assert.ok(answer.rules.checked.includes('Poland KSeF FA(3) (this service’s checks)'), name);
    }
  });
});

test('inspect reads our own FA(3) back with its amounts, and no rule broken', async () => {
  const response = await post('/v1/e-invoice/inspect', OWN);
  const answer = (await response.json()) as JsonAnswer;
  assert.equal(response.status, 200);
  assert.equal(answer.totals.differences.length, 0, JSON.stringify(answer.totals.differences));
  assert.deepEqual(answer.rules.issues, []);
  assert.equal(answer.reissue.valid, true, JSON.stringify(answer.reissue));
  assert.equal(answer.invoice.seller.vat_id, `PL${SELLER_NIP}`);
  assert.deepEqual(answer.invoice.ksef, undefined);
});

test('hostile FA(3): a DOCTYPE, malformed XML and invalid UTF-8 are refused as for CII and UBL', async () => {
  const text = Buffer.from(OWN).toString('utf8');
  const cases: [string, Uint8Array | string, string][] = [
    ['doctype', text.replace('<Faktura', '<!DOCTYPE Faktura [<!ENTITY x "y">]><Faktura'), 'xml_doctype_refused'],
    ['malformed', text.replace('</Faktura>', ''), 'xml_malformed'],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from(OWN).subarray(0, 200), Buffer.from([0xff, 0xfe]), Buffer.from(OWN).subarray(200)]),
      'xml_malformed',
    ],
  ];
  for (const [name, body, code] of cases) {
    const response = await post('/v1/e-invoice/render.pdf', body);
    const answer = (await response.json()) as { error: { code: string } };
    assert.equal(response.status, 400, name);
    assert.equal(answer.error.code, code, name);
  }
});

const decodeQr = (pdf: Buffer): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'ksef-qr-'));
  try {
    writeFileSync(join(dir, 'page.pdf'), pdf);
    spawnSync('pdftoppm', ['-png', '-r', '200', '-f', '1', '-l', '1', join(dir, 'page.pdf'), join(dir, 'page')]);
    const png = readdirSync(dir).find((name) => name.endsWith('.png'))!;
    const run = spawnSync('zbarimg', ['--raw', '-q', join(dir, png)], { encoding: 'utf8' });
    return run.stdout.trim().split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('render.pdf with KOD I', { skip: zbarMissing }, () => {
  const hash = createHash('sha256').update(OWN).digest('base64url');
  const link = `https://qr.ksef.mf.gov.pl/invoice/${SELLER_NIP}/02-03-2026/${hash}`;

  test('without a KSeF number: the link over the bytes as sent, captioned OFFLINE', { timeout: 120_000 }, async () => {
    const response = await post('/v1/e-invoice/render.pdf?locale=pl-PL', OWN);
    const pdf = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200, pdf.toString('utf8').slice(0, 300));
    assert.ok(decodeQr(pdf).includes(link), decodeQr(pdf).join('\n'));
    const text = normalizeText(pdfPages(pdf, 'raw')[0]!);
    assert.match(text, /OFFLINE/);
    assert.match(text, /FV\/2026\/03\/0042/);
  });

  test('with a KSeF number on the test host: that number as the caption', { timeout: 120_000 }, async () => {
    const number = withKsefChecksum(`${SELLER_NIP}-20260302-0100001AF629`);
    const response = await post(`/v1/e-invoice/render.pdf?locale=en&ksef_environment=test&ksef_number=${number}`, OWN);
    const pdf = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200);
    assert.ok(decodeQr(pdf).includes(link.replace('https://qr.', 'https://qr-test.')));
    assert.match(normalizeText(pdfPages(pdf, 'raw')[0]!), new RegExp(number));
  });

  test('an FA(3) attached to a PDF: the same link, over the attached XML', { timeout: 120_000 }, async () => {
    const pdfWith = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /EmbeddedFile /Length ${OWN.length} >>\nstream\n`, 'latin1'),
      OWN,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);
    const response = await post('/v1/e-invoice/render.pdf?locale=en', pdfWith, 'application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200, pdf.toString('utf8').slice(0, 300));
    assert.ok(decodeQr(pdf).includes(link), decodeQr(pdf).join('\n'));
    assert.match(normalizeText(pdfPages(pdf, 'raw')[0]!), /OFFLINE/);
  });

  test('an FA(3) signed as a CAdES .p7m: the link over the signed XML, not the envelope', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ksef-p7m-'));
    try {
      const file = (name: string) => join(dir, name);
      writeFileSync(file('fa3.xml'), OWN);
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=KSeF test signer',
        '-keyout', file('key.pem'), '-out', file('cert.pem'),
      ], { stdio: 'ignore' }); // prettier-ignore
      execFileSync('openssl', [
        'cms', '-sign', '-nodetach', '-binary', '-outform', 'DER', '-in', file('fa3.xml'),
        '-signer', file('cert.pem'), '-inkey', file('key.pem'), '-out', file('fa3.xml.p7m'),
      ]); // prettier-ignore
      const p7m = readFileSync(file('fa3.xml.p7m'));
      const read = readForRender({ bytes: p7m, format: 'xml', locale: undefined, codeArguments: {} });
      assert.equal(read.invoice.envelope, 'cades');
      assert.equal(read.verificationCode?.link, link);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bad KSeF number is a 400 naming ksef_number, before any render', async () => {
    const cases: [string, string][] = [
      ['not-a-number', 'ksef_number_malformed'],
      [`${SELLER_NIP}-20260302-0100001AF629-00`, 'ksef_number_checksum'],
      [withKsefChecksum('7770000005-20260302-0100001AF629'), 'ksef_number_seller'],
    ];
    for (const [number, code] of cases) {
      const response = await post(`/v1/e-invoice/render.pdf?ksef_number=${number}`, OWN);
      const answer = (await response.json()) as { error: { code: string; issues: { path: string }[] } };
      assert.equal(response.status, 400, number);
      assert.equal(answer.error.code, code);
      assert.equal(answer.error.issues[0]?.path, 'ksef_number');
    }
  });
});
