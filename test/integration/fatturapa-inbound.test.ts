import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../src/einvoice/formats/fatturapa/request.js';
import { prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { FATTURAPA_EXAMPLES } from '../fixtures/fatturapaExamples.js';
import { EINVOICE_ORACLE } from '../support/einvoiceOracle.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { needsShared } from '../support/sharedFolder.js';

/**
 * Received FatturaPA through POST /v1/e-invoice/inspect: AdE's official examples (FPR12, FPA12,
 * two bodies) read with the totals they state, the service's own files read back with the amounts
 * validate answered, a CAdES .p7m made here with openssl (`cms -sign -nodetach -binary -outform
 * DER`, a test certificate made here) read with its signer, and hostile envelopes refused as
 * hostile XML is: a 4xx with a stable code, never a 5xx.
 */
const EXAMPLES = join(EINVOICE_ORACLE, 'fatturapa', 'examples');
const examplesMissing = needsShared('fatturapa/examples');
// As Italian qualified certificates order it: country first, the holder's name last (RFC 4514 prints it first).
const SIGNER = '/C=IT/O=Studio Rossi/serialNumber=TINIT-RSSMRA80A01H501U/CN=Mario Rossi';

let app: TestApp;
let dir: string;
before(async () => {
  app = await startTestApp({ COMPUTE_THREADS: '1' });
  dir = mkdtempSync(join(tmpdir(), 'fatturapa-p7m-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', SIGNER,
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' }); // prettier-ignore
});
after(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `file` signed as a .p7m with the test certificate. */
/** `stream`: BER as Italian signing tools write it (indefinite lengths, the content in segments). */
function sign(content: Uint8Array, name: string, { stream = false, outform = 'DER' } = {}): Buffer {
  writeFileSync(join(dir, name), content);
  execFileSync('openssl', [
    'cms', '-sign', '-nodetach', '-binary', ...(stream ? ['-stream'] : []), '-outform', outform, '-in', join(dir, name),
    '-signer', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem'), '-out', join(dir, `${name}.p7m`),
  ]); // prettier-ignore
  return readFileSync(join(dir, `${name}.p7m`));
}

const inspect = async (body: Uint8Array | string, type = 'application/xml') => {
  const response = await fetch(`${app.url}/v1/e-invoice/inspect`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, answer: await response.json() };
};

const ownFile = (name: keyof typeof FATTURAPA_EXAMPLES) => {
  const checked = prepareProfiledEInvoice(FATTURAPA_EXAMPLES[name], 'fatturapa');
  const { prepared } = checked;
  const fatturapa = fatturaPAFieldsOf(checked);
  return produceFatturaPA(prepared, fatturapa!).xml;
};

describe("AdE's official examples", { skip: examplesMissing }, () => {
  test('each is read, with the totals its summaries and payment state', async () => {
    const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.xml'));
    assert.equal(files.length, 6);
    for (const file of files) {
      const xml = readFileSync(join(EXAMPLES, file), 'utf8');
      const { status, answer } = await inspect(xml);
      assert.equal(status, 200, file);
      assert.equal(answer.syntax, 'fatturapa');
      assert.equal(answer.customization.name, 'FatturaPA (Italy)');
      assert.match(answer.customization.id, /FP[AR]12$/);
      const firstBody = xml.slice(0, xml.indexOf('</FatturaElettronicaBody>'));
      // None of AdE's examples states ImportoTotaleDocumento: the total is the summaries', which is
      // what the first body's one payment asks.
      const payment = /<ImportoPagamento>([^<]+)</.exec(firstBody)?.[1];
      assert.equal(answer.totals.document.grand_total, payment, file);
      assert.equal(answer.invoice_number, /<Numero>([^<]+)</.exec(firstBody)?.[1]);
      const bodies = xml.split('<FatturaElettronicaBody>').length - 1;
      assert.equal(answer.source.documents, bodies > 1 ? bodies : undefined, file);
    }
  });

  test('FPR02 is read with the difference its own summary has (27.00 stated, the lines give 25.00)', async () => {
    const { answer } = await inspect(readFileSync(join(EXAMPLES, 'IT01234567890_FPR02.xml')));
    assert.deepEqual(
      answer.totals.differences.map((difference: { field: string }) => difference.field),
      ['vat_breakdown[0].basis', 'vat_breakdown[0].tax', 'tax_basis', 'grand_total', 'due_payable'],
    );
  });
});

describe("the service's own FatturaPA read back", () => {
  test('the professional invoice: the amounts validate answered, Natura and the pension fund', async () => {
    const { status, answer } = await inspect(ownFile('td01-professional-withholding-pension-fund'));
    assert.equal(status, 200);
    assert.equal(answer.totals.document.grand_total, '1448.43');
    assert.equal(answer.totals.document.tax_total, '260.83');
    // The withholding is paid to the tax office: the amount due is ImportoPagamento.
    assert.equal(answer.totals.document.due_payable, '1220.43');
    assert.equal(answer.totals.document.prepaid, '228.00');
    assert.deepEqual(answer.totals.differences, []);
    assert.equal(answer.type_code, '380');
    assert.equal(answer.profile, 'TD01');
  });

  test('a credit note is a 381', async () => {
    const { answer } = await inspect(ownFile('td04-credit-note'));
    assert.equal(answer.type_code, '381');
    assert.equal(answer.totals.document.grand_total, '585.60');
  });
});

describe('a signed FatturaPA (.p7m)', () => {
  test('is read inside its envelope, the signature reported present with its signer, not verified', async () => {
    const p7m = sign(ownFile('td01-mixed-rates'), 'IT12345678903_FT101.xml');
    for (const type of ['application/pkcs7-mime', 'application/xml']) {
      const { status, answer } = await inspect(p7m, type);
      assert.equal(status, 200, type);
      assert.equal(answer.envelope, 'cades');
      assert.deepEqual(answer.source.signature, {
        present: true,
        verified: false,
        signers: ['CN=Mario Rossi, SERIALNUMBER=TINIT-RSSMRA80A01H501U, O=Studio Rossi, C=IT'],
      });
      assert.equal(answer.invoice_number, 'FT-101');
      assert.ok(answer.notes.some((note: string) => note.startsWith('Signed (CAdES .p7m) by CN=Mario Rossi')));
    }
  });

  test('as it arrives: BER, base64 with line breaks, PEM, a .p7m signed again', async () => {
    const xml = ownFile('td01-mixed-rates');
    const ber = sign(xml, 'ber.xml', { stream: true });
    const forms: [string, Uint8Array, string][] = [
      ['BER', ber, 'application/pkcs7-mime'],
      ['base64 in lines', Buffer.from(ber.toString('base64').replace(/.{76}/g, '$&\n')), 'application/pkcs7-mime'],
      ['PEM', sign(xml, 'pem.xml', { stream: true, outform: 'PEM' }), 'application/pkcs7-mime'],
      ['a .p7m inside a .p7m', sign(ber, 'ber.xml.p7m', { stream: true }), 'application/xml'],
    ];
    for (const [form, body, type] of forms) {
      const { status, answer } = await inspect(body, type);
      assert.equal(status, 200, `${form}: ${JSON.stringify(answer).slice(0, 300)}`);
      assert.equal(answer.invoice_number, 'FT-101', form);
      assert.equal(
        answer.source.signature.signers[0],
        'CN=Mario Rossi, SERIALNUMBER=TINIT-RSSMRA80A01H501U, O=Studio Rossi, C=IT',
      );
    }
  });

  test('hostile envelopes are refused with a stable code, never a 5xx', async () => {
    const good = sign(ownFile('td01-mixed-rates'), 'good.xml');
    const cases: [string, Uint8Array, number, string][] = [
      ['truncated DER', good.subarray(0, good.length - 40), 400, 'p7m_malformed'],
      ['cut inside a length', good.subarray(0, 3), 400, 'p7m_malformed'],
      ['five signed envelopes inside one another', [1, 2, 3, 4].reduce((inner, level) => sign(inner, `nested${level}.p7m`), good), 400, 'p7m_nested'],
      [
        'a DOCTYPE inside',
        sign(Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'), 'xxe.xml'),
        400,
        'xml_doctype_refused',
      ],
      ['over the size limit', Buffer.concat([Buffer.from([0x30, 0x84, 0x00, 0x90, 0x00, 0x00]), Buffer.alloc(9 * 1024 * 1024)]), 413, 'payload_too_large'],
      ['an indefinite length that never ends (BER)', Buffer.from([0x30, 0x80, 0x06, 0x09, 0, 0, 0, 0]), 400, 'p7m_malformed'],
      ['a SEQUENCE nested past the depth bound', Buffer.from(Array.from({ length: 60 }, (_, at) => [0x30, 2 * (59 - at)]).flat()), 400, 'p7m_malformed'],
    ]; // prettier-ignore
    for (const [name, body, status, code] of cases) {
      const answer = await inspect(body, 'application/pkcs7-mime');
      assert.equal(answer.status, status, name);
      assert.equal(answer.answer.error.code, code, name);
    }
  });
});
