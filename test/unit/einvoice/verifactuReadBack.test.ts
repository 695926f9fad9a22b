import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { previousOf, type AltaRecord, type BillingRecord } from '../../../src/einvoice/formats/verifactu/model.js';
import { readRecords } from '../../../src/einvoice/formats/verifactu/reader.js';
import { checkVerifactuRequest } from '../../../src/einvoice/formats/verifactu/request.js';
import { writeMessage } from '../../../src/einvoice/formats/verifactu/writer.js';
import type { InboundRequest } from '../../../src/einvoice/inbound/inboundRequest.js';
import { readForInspect, readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { EXAMPLE_VERIFACTU_REQUEST } from '../../../src/einvoice/formats/verifactu/example.js';
import { TEST_SETTINGS, VERIFACTU_EXAMPLES } from '../../fixtures/verifactuExamples.js';
import { needsShared, SHARED_EINVOICE } from '../../support/sharedFolder.js';

/**
 * VERI*FACTU records read back (inspect): the service's own records chained in a message, then
 * tampered with (an amount, a link, a record dropped or moved), and AEAT's example records from
 * ../shared/einvoice/verifactu/examples (skipped where that folder is absent).
 */
const CHAIN = [
  'F1 first record of the system',
  'F2 simplified, no buyer NIF',
  'R1 by substitution',
  'F1 with equivalence surcharge',
  'F1 exempt E1, not subject N1 and reverse charge S2',
  'R4 credit note from preceding_invoice',
  'cancellation of F2026-0040',
];

/** The records of CHAIN, each naming the one before it as the issuer's system keeps them. */
function chainedRecords(names = CHAIN): BillingRecord[] {
  const records: BillingRecord[] = [];
  for (const name of names) {
    const body = structuredClone(VERIFACTU_EXAMPLES[name]!);
    const last = records.at(-1);
    body.verifactu = { ...body.verifactu, previous: last ? previousOf(last) : undefined };
    const checked = checkVerifactuRequest(body, TEST_SETTINGS);
    assert.deepEqual(checked.issues, [], name);
    records.push(checked.record);
  }
  return records;
}

const inspectXml = (xml: string) => {
  const read = readForInspect({ bytes: Buffer.from(xml), format: 'xml', locale: undefined });
  assert.ok('records' in read, 'read as records, not as an invoice');
  return read.records as ReturnType<typeof readRecords> & { envelope: string | null; syntax: string };
};

test("the service's own chain of seven reads back linked, each huella recomputed, each QR the record's", () => {
  const records = chainedRecords();
  const report = readRecords(writeMessage(records), { environment: 'test' });
  assert.equal(report.records.length, 7);
  assert.ok(report.huellas_match && report.chain_intact);
  assert.deepEqual(
    report.records.map((record) => [record.kind, record.chain.link, record.huella.computed]),
    records.map((record, at) => [record.kind, at === 0 ? 'first' : 'linked', record.huella]),
  );
  for (const [at, record] of records.entries()) {
    const read = report.records[at]!;
    assert.equal(read.invoice_number, record.number);
    assert.equal(read.issue_date, record.date);
    assert.equal(read.issuer_nif, record.issuerNif);
    // The QR URL is built by the code that builds the PDF's: the same URL as the record's own.
    assert.equal(read.qr_url, record.kind === 'alta' ? record.qrUrl : null);
  }
  assert.deepEqual(
    report.records.map((record) => record.invoice_type),
    ['F1', 'F2', 'R1', 'F1', 'F1', 'R4', null],
  );
});

test('a tampered amount: that huella does not match, everything else is still read', () => {
  const records = chainedRecords();
  const surcharge = records[3] as AltaRecord;
  const xml = writeMessage(records).replace(
    `<sum1:ImporteTotal>${surcharge.importeTotal}</sum1:ImporteTotal>`,
    '<sum1:ImporteTotal>1.00</sum1:ImporteTotal>',
  );
  const report = inspectXml(xml);
  assert.equal(report.records.length, 7);
  assert.deepEqual(
    report.records.map((record) => record.huella.matches),
    [true, true, true, false, true, true, true],
  );
  const tampered = report.records[3]!;
  assert.equal(tampered.huella.stated, surcharge.huella);
  assert.notEqual(tampered.huella.computed, surcharge.huella);
  assert.equal(tampered.importe_total, '1.00');
  assert.match(tampered.qr_url ?? '', /importe=1\.00$/);
  // The chain links stated huellas: it holds; the report says the huellas do not all match.
  assert.equal(report.chain_intact, true);
  assert.equal(report.huellas_match, false);
});

test('a broken link names the record by index and number', () => {
  const records = chainedRecords();
  // A record dropped: the one after it names a record the message does not hold before it.
  const dropped = readRecords(writeMessage([records[0]!, records[1]!, records[3]!, records[4]!]));
  assert.deepEqual(
    dropped.records.map((record) => record.chain.link),
    ['first', 'linked', 'broken', 'linked'],
  );
  assert.equal(dropped.chain_intact, false);
  assert.equal(dropped.huellas_match, true);
  assert.match(
    dropped.records[2]!.chain.message ?? '',
    /^record 2 \(F2026-0047 of \d\d-\d\d-\d{4}\) names R2026-0001 of .* as its previous record, but the issuer's record before it is record 1 \(T2026-0001 /,
  );
  // A previous huella altered: the link breaks, and the record's own huella (which covers it) no longer matches.
  const xml = writeMessage(records);
  // Record 4's huella is written twice: as its own, then as record 5's previous (the last occurrence).
  const at = xml.lastIndexOf(records[4]!.huella);
  const altered = `${xml.slice(0, at)}${'0'.repeat(64)}${xml.slice(at + 64)}`;
  const report = readRecords(altered);
  const findings = report.records.map((record) => [record.chain.link, record.huella.matches]);
  assert.deepEqual(findings[5], ['broken', false]);
  assert.match(
    report.records[5]!.chain.message ?? '',
    /^record 5 \(R2026-0004 .* carries 0{64} as the huella of record 4/,
  );
  // A first record after others of the same issuer.
  const restarted = readRecords(writeMessage([records[0]!, records[1]!, records[0]!]));
  assert.equal(restarted.records[2]!.chain.link, 'broken');
  assert.match(restarted.records[2]!.chain.message ?? '', /is marked PrimerRegistro, but record 1 \(T2026-0001/);
});

test("the chain is each issuer's: two issuers' records interleaved in one message stay linked", () => {
  const own = chainedRecords(CHAIN.slice(0, 3));
  const otherSeller = { ...(VERIFACTU_EXAMPLES['F1 with 21 % and 10 %']!.seller as object), vat_id: 'ESB00000000' };
  const other: BillingRecord[] = [];
  for (const number of ['B-1', 'B-2']) {
    const body = structuredClone(VERIFACTU_EXAMPLES['F1 with 21 % and 10 %']!);
    const last = other.at(-1);
    Object.assign(body, { seller: otherSeller, invoice_number: number });
    body.verifactu = { ...body.verifactu, previous: last ? previousOf(last) : undefined };
    const checked = checkVerifactuRequest(body, TEST_SETTINGS);
    assert.deepEqual(checked.issues, []);
    other.push(checked.record);
  }
  const report = readRecords(writeMessage([own[0]!, other[0]!, own[1]!, other[1]!, own[2]!]));
  assert.deepEqual(
    report.records.map((record) => record.chain.link),
    ['first', 'first', 'linked', 'linked', 'linked'],
  );
});

test('the SOAP envelope, a requirement (no VERI*FACTU) and a record alone are read; an invoice is still an invoice', () => {
  const records = chainedRecords(CHAIN.slice(0, 2));
  const soap = inspectXml(writeMessage(records, { soap: true }));
  assert.equal(soap.envelope, 'soap');
  assert.equal(soap.syntax, 'verifactu');
  assert.match(
    soap.records[0]!.qr_url ?? '',
    /^https:\/\/www2\.agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR\?/,
  );
  // Sent on AEAT's requirement: the system is not VERI*FACTU, its invoices' QR is ValidarQRNoVerifactu.
  const body = structuredClone(VERIFACTU_EXAMPLES['F1 no VERI*FACTU, SOAP envelope, with operation date']!);
  const record = checkVerifactuRequest(body, TEST_SETTINGS).record as AltaRecord;
  const onRequirement = writeMessage([record]).replace(
    '</sum1:ObligadoEmision>',
    '</sum1:ObligadoEmision><sum1:RemisionRequerimiento><sum1:RefRequerimiento>R-1</sum1:RefRequerimiento></sum1:RemisionRequerimiento>',
  );
  const read = readRecords(onRequirement, { environment: 'test' }).records[0]!;
  assert.equal(read.mode, 'no_verifactu');
  assert.equal(read.qr_url, record.qrUrl);
  assert.match(read.qr_url, /ValidarQRNoVerifactu\?/);
  // One record alone, without its message.
  const alone = /<sum1:RegistroAlta>[\s\S]*<\/sum1:RegistroAlta>/
    .exec(writeMessage([records[0]!]))![0]
    .replace(
      '<sum1:RegistroAlta>',
      '<sum1:RegistroAlta xmlns:sum1="https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd">',
    );
  const single = inspectXml(alone);
  assert.equal(single.records.length, 1);
  assert.ok(single.records[0]!.huella.matches);
  // A CII invoice that merely mentions the records' namespace is read as an invoice.
  const invoice = readForInspect({
    bytes: Buffer.from(
      `<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><!-- ${'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd'} --></rsm:CrossIndustryInvoice>`,
    ),
    format: 'xml',
    locale: undefined,
  });
  assert.ok('invoice' in invoice);
});

const refusal = (read: () => unknown): string => {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return error.code;
  }
  assert.fail('not refused');
};

test('hostile record XML is refused as any inbound XML; render.pdf refuses records before payment', () => {
  const xml = writeMessage(chainedRecords(CHAIN.slice(0, 2)));
  const request = (text: string): InboundRequest => ({ bytes: Buffer.from(text), format: 'xml', locale: undefined });
  const doctype = xml.replace(
    '<sum:RegFactuSistemaFacturacion',
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><sum:RegFactuSistemaFacturacion',
  );
  assert.equal(
    refusal(() => readForInspect(request(doctype))),
    'xml_doctype_refused',
  );
  const deep = xml.replace(
    '</sum1:DescripcionOperacion>',
    `</sum1:DescripcionOperacion>${'<a>'.repeat(60)}${'</a>'.repeat(60)}`,
  );
  assert.equal(
    refusal(() => readForInspect(request(deep))),
    'xml_too_deep',
  );
  const many = xml.replace('</sum1:DescripcionOperacion>', `</sum1:DescripcionOperacion>${'<a/>'.repeat(200_001)}`);
  assert.equal(
    refusal(() => readForInspect(request(many))),
    'einvoice_too_large',
  );
  assert.equal(
    refusal(() => readForRender(request(xml))),
    'einvoice_not_printable',
  );
});

const EXAMPLES = join(SHARED_EINVOICE, 'verifactu', 'examples');
const example = (path: string) => readFileSync(join(EXAMPLES, path), 'utf8');

test(
  "AEAT's example record (signature document §8.1) reads back with its huella",
  { skip: needsShared('verifactu/examples') },
  () => {
    const report = inspectXml(example('aeat-firma-v0.1.5/ejemploRegistro.xml'));
    const [record] = report.records;
    assert.equal(report.records.length, 1);
    assert.equal(record!.huella.computed, 'FF954378B64ED331A9B2366AD317D86E9DEC1716B12DD0ACCB172A6DC4C105AA');
    assert.ok(record!.huella.matches);
    assert.equal(record!.invoice_type, 'R3');
    assert.equal(record!.chain.link, 'outside');
    assert.equal(
      record!.qr_url,
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678-G66&fecha=03-02-2025&importe=241.4',
    );
    const tampered = inspectXml(example('aeat-firma-v0.1.5/ejemploRegistro.xml').replace('>241.4<', '>241.5<'));
    assert.equal(tampered.records[0]!.huella.matches, false);
    assert.equal(tampered.records[0]!.invoice_number, '12345678-G66');
  },
);

test(
  'the six constructed records of ../shared in one message: a chain, each huella and QR as chain.json says',
  { skip: needsShared('verifactu/examples/constructed/chain.json') },
  () => {
    const files = readdirSync(join(EXAMPLES, 'constructed'))
      .filter((name) => name.endsWith('.xml'))
      .sort();
    const texts = files.map((name) => example(`constructed/${name}`));
    const holders = texts.map((text) => /<sum:RegistroFactura>[\s\S]*<\/sum:RegistroFactura>/.exec(text)![0]);
    const message = texts[0]!.replace(/<sum:RegistroFactura>[\s\S]*<\/sum:RegistroFactura>/, () => holders.join('\n'));
    const report = inspectXml(message);
    const expected = (
      JSON.parse(example('constructed/chain.json')) as {
        chain: { huella: string; numserie: string; qr?: { prod_verifactu: string } }[];
      }
    ).chain;
    assert.equal(report.records.length, 6);
    assert.ok(report.huellas_match && report.chain_intact);
    assert.deepEqual(
      report.records.map((record) => [record.invoice_number, record.huella.computed, record.chain.link, record.qr_url]),
      expected.map((record, at) => [
        record.numserie,
        record.huella,
        at === 0 ? 'first' : 'linked',
        record.qr?.prod_verifactu ?? null,
      ]),
    );
    // Each file alone: its own huella, its link outside the file (the first is the system's first record).
    for (const text of texts.slice(1)) assert.equal(inspectXml(text).records[0]!.chain.link, 'outside');
    // The records out of order: the link of the one moved names it.
    const swapped = texts[0]!.replace(/<sum:RegistroFactura>[\s\S]*<\/sum:RegistroFactura>/, () =>
      [holders[0], holders[2], holders[1]].join('\n'),
    );
    const broken = inspectXml(swapped).records.map((record) => record.chain.link);
    assert.deepEqual(broken, ['first', 'broken', 'broken']);
  },
);

test(
  'the third-party fixtures (josemmo/Verifactu-PHP) read back with their huellas',
  { skip: needsShared('verifactu/examples/repos') },
  () => {
    const [folder] = readdirSync(join(EXAMPLES, 'repos'));
    const names = readdirSync(join(EXAMPLES, 'repos', folder!)).filter((name) => name.endsWith('.xml'));
    assert.equal(names.length, 3);
    const kinds = names.map((name) => {
      const [record] = inspectXml(example(`repos/${folder}/${name}`)).records;
      assert.ok(record!.huella.matches, name);
      return record!.kind;
    });
    assert.deepEqual(kinds.sort(), ['alta', 'alta', 'anulacion']);
  },
);

test("docs/e-invoices-spain.md's read-back example is what inspect answers for the worked example's records", () => {
  const spain = readFileSync(new URL('../../../docs/e-invoices-spain.md', import.meta.url), 'utf8');
  const block = /## Reading records back[\s\S]*?```json\n([\s\S]*?)\n```/.exec(spain);
  assert.ok(block, 'the section has its JSON answer');
  const documented = JSON.parse(block[1]!) as { records: unknown[]; huellas_match: boolean; chain_intact: boolean };
  const at = (instant: string) => ({ ...TEST_SETTINGS, environment: 'production' as const, now: new Date(instant) });
  const first = checkVerifactuRequest(structuredClone(EXAMPLE_VERIFACTU_REQUEST), at('2026-11-30T11:15:02Z')).record;
  const next = structuredClone(EXAMPLE_VERIFACTU_REQUEST) as Record<string, unknown> & { verifactu: object };
  next.invoice_number = 'F2026-0043';
  next.verifactu = { ...next.verifactu, previous: previousOf(first) };
  const second = checkVerifactuRequest(next, at('2026-11-30T11:20:41Z')).record;
  // The second record's ImporteTotal changed after it was written.
  const xml = writeMessage([first, second]).replace(
    /(<sum1:NumSerieFactura>F2026-0043<[\s\S]*?<sum1:ImporteTotal>)1002\.10/,
    '$11020.10',
  );
  const answer = inspectXml(xml);
  assert.deepEqual(answer.records, documented.records);
  assert.deepEqual([answer.huellas_match, answer.chain_intact], [documented.huellas_match, documented.chain_intact]);
});
