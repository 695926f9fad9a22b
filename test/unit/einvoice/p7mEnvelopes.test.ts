import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { berToDer } from '../../../src/cms/ber.js';
import { MAX_ENVELOPES } from '../../../src/cms/envelopes.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../../src/einvoice/formats/fatturapa/request.js';
import { readInbound } from '../../../src/einvoice/inbound/readInbound.js';
import { prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { InputRejected } from '../../../src/errors.js';
import { FATTURAPA_EXAMPLES } from '../../fixtures/fatturapaExamples.js';

/**
 * Signed FatturaPA files as a receiver gets them, each signed here with openssl and a throwaway
 * certificate made here: DER, BER (`-stream`: indefinite lengths and the content as a constructed
 * OCTET STRING of 4 KB segments, as Italian signing tools write), base64 with and without line
 * breaks, PEM, and a .p7m signed again. Hostile BER is refused as p7m_malformed, in linear time.
 */
const SIGNER = '/C=IT/O=Studio Rossi/CN=Mario Rossi';
const COUNTERSIGNER = '/C=IT/O=Archivio/CN=Anna Bianchi';
let dir: string;
let xml: Buffer;
const signed: Record<string, Buffer> = {};

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'ignore'] });
function sign(input: Buffer, who: 'a' | 'b', outform: 'DER' | 'PEM', stream: boolean): Buffer {
  writeFileSync(join(dir, 'in'), input);
  return openssl([
    'cms', '-sign', '-nodetach', '-binary', ...(stream ? ['-stream'] : []), '-outform', outform, '-in', join(dir, 'in'),
    '-signer', join(dir, `${who}.crt`), '-inkey', join(dir, `${who}.key`),
  ]); // prettier-ignore
}

/** A detached signature: SignedData with no content in it. */
function detached(): Buffer {
  writeFileSync(join(dir, 'in'), xml);
  return openssl([
    'cms',
    '-sign',
    '-binary',
    '-outform',
    'DER',
    '-in',
    join(dir, 'in'),
    '-signer',
    join(dir, 'a.crt'),
    '-inkey',
    join(dir, 'a.key'),
  ]);
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'p7m-ber-'));
  for (const [who, subject] of [['a', SIGNER], ['b', COUNTERSIGNER]] as const)
    openssl([
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', subject,
      '-keyout', join(dir, `${who}.key`), '-out', join(dir, `${who}.crt`),
    ]); // prettier-ignore
  const checked = prepareProfiledEInvoice(FATTURAPA_EXAMPLES['td01-mixed-rates'], 'fatturapa');
  xml = produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml;
  signed.der = sign(xml, 'a', 'DER', false);
  signed.ber = sign(xml, 'a', 'DER', true);
  signed.pem = sign(xml, 'a', 'PEM', true);
  signed.nested = sign(signed.ber, 'b', 'DER', true);
  signed.nestedPem = sign(signed.pem, 'b', 'PEM', false);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const codeOf = (bytes: Uint8Array) => {
  try {
    readInbound(bytes, 'xml');
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return error.code;
  }
  return 'read';
};

test('openssl -stream writes BER: indefinite lengths and a segmented content', () => {
  assert.deepEqual([...signed.ber!.subarray(0, 2)], [0x30, 0x80]);
  assert.ok(signed.ber!.includes(Buffer.from([0x24, 0x80])), 'a constructed OCTET STRING');
  // Re-encoded as DER, the envelope carries the same content as the DER openssl wrote.
  assert.ok(Buffer.from(berToDer(signed.ber!)).includes(xml));
  assert.deepEqual(Buffer.from(berToDer(signed.der!)), signed.der, 'DER comes out byte for byte');
});

test('every form of the same signed file reads the same invoice and signer', () => {
  const forms: Record<string, Buffer> = {
    der: signed.der!,
    ber: signed.ber!,
    'base64 on one line': Buffer.from(signed.ber!.toString('base64')),
    'base64 in lines of 64 (CRLF)': Buffer.from(signed.der!.toString('base64').replace(/.{64}/g, '$&\r\n')),
    'PEM armour': signed.pem!,
    // The armour lines only: "CMS" turns up in the base64 body of about one signature in a hundred
    // (CI at 17fdcb6 failed on one that a global replace had corrupted).
    'PEM with a PKCS7 armour': Buffer.from(
      signed.pem!.toString('latin1').replace(/-----(BEGIN|END) CMS-----/g, '-----$1 PKCS7-----'),
    ),
  };
  for (const [form, bytes] of Object.entries(forms)) {
    const read = readInbound(bytes, 'xml');
    assert.equal(read.invoice.number, 'FT-101', form);
    assert.equal(read.invoice.envelope, 'cades', form);
    assert.deepEqual(read.source.signers, ['CN=Mario Rossi, O=Studio Rossi, C=IT'], form);
    assert.deepEqual(Buffer.from(read.file!), xml, `${form}: the file is the XML inside`);
  }
});

test('a .p7m inside a .p7m: both opened, both signers listed outermost first', () => {
  for (const bytes of [signed.nested!, signed.nestedPem!]) {
    const read = readInbound(bytes, 'xml');
    assert.equal(read.invoice.number, 'FT-101');
    assert.deepEqual(read.source.signers, [
      'CN=Anna Bianchi, O=Archivio, C=IT',
      'CN=Mario Rossi, O=Studio Rossi, C=IT',
    ]);
    assert.deepEqual(Buffer.from(read.file!), xml);
  }
  let deep = signed.der!;
  for (let level = 1; level < MAX_ENVELOPES; level++) deep = sign(deep, 'b', 'DER', level % 2 === 0);
  assert.equal(codeOf(deep), 'read', `${MAX_ENVELOPES} envelopes are opened`);
  assert.equal(codeOf(sign(deep, 'b', 'DER', true)), 'p7m_nested');
});

test('hostile or broken BER is a clear p7m_malformed; not-an-envelope keeps its refusal', () => {
  const ber = signed.ber!;
  const cases: [string, Uint8Array, string][] = [
    ['an indefinite length that never ends', ber.subarray(0, ber.length - 2), 'p7m_malformed'],
    ['cut in the content', ber.subarray(0, 200), 'p7m_malformed'],
    ['a length past the end', Buffer.from([0x30, 0x80, 0x06, 0x7f, 0x2a, 0x00, 0x00]), 'p7m_malformed'],
    ['an indefinite primitive', Buffer.from([0x30, 0x80, 0x04, 0x80, 0x00, 0x00, 0x00, 0x00]), 'p7m_malformed'],
    ['nested 40 deep', Buffer.concat([Buffer.alloc(80, Buffer.from([0x30, 0x80])), Buffer.alloc(80)]), 'p7m_malformed'],
    [
      'a segment that is no OCTET STRING',
      Buffer.from([0x30, 0x80, 0x24, 0x80, 0x02, 0x01, 0x00, 0, 0, 0, 0]),
      'p7m_malformed',
    ],
    ['base64 of broken DER', Buffer.from(ber.subarray(0, 300).toString('base64')), 'p7m_malformed'],
    ['text that is not base64 (nor XML)', Buffer.from('this is not base64!'), 'xml_malformed'],
    ['a signature wrapping nothing (detached)', detached(), 'p7m_malformed'],
    ['a .p7m whose content is not XML', sign(Buffer.from('plain text'), 'a', 'DER', true), 'xml_malformed'],
  ];
  for (const [name, bytes, code] of cases) assert.equal(codeOf(bytes), code, name);
});

test('hostile BER is refused in linear time, well within the time limit', () => {
  const size = 8 * 1024 * 1024 - 16;
  const hostile: [string, Buffer][] = [
    ['deep nesting', Buffer.alloc(size, Buffer.from([0x30, 0x80]))],
    // A flat run of empty segments: every one is an element; the element budget stops it.
    [
      'many segments',
      Buffer.concat([Buffer.from([0x30, 0x80, 0x24, 0x80]), Buffer.alloc(size, Buffer.from([0x04, 0x00]))]),
    ],
    ['base64 text of 8 MB', Buffer.alloc(size, 'MIAG')],
    ['white space then a stray byte', Buffer.concat([Buffer.from('MIAG'), Buffer.alloc(size, ' '), Buffer.from('!')])],
  ];
  for (const [name, bytes] of hostile) {
    const started = performance.now();
    assert.notEqual(codeOf(bytes), 'read', name);
    const took = performance.now() - started;
    assert.ok(took < 1500, `${name}: ${took.toFixed(0)} ms`);
  }
});
