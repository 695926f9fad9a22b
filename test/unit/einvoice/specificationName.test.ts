import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { englishNote } from '../../../src/einvoice/inbound/fileDocuments.js';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { checkEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { PROFILES } from '../../../src/einvoice/profiles.js';
import { EINVOICE_ORACLE } from '../../support/einvoiceOracle.js';
import { needsShared } from '../../support/sharedFolder.js';

// What inspect's `customization` and the PDF's banner call a received document's specification
// (inbound/customizations.ts specificationName): a profile the registry recognises is named as
// such, never "read as plain EN 16931".

const PLAIN = /plain EN 16931/;
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

/** inspect's name and notes, and render.pdf's notes, for one document. */
function named(document: Uint8Array) {
  const answer = inspectEInvoice(document, 'xml');
  const render = readForRender({ bytes: document, format: 'xml', locale: undefined });
  return { customization: answer.customization, notes: [...answer.notes, ...render.notes.map(englishNote)] };
}

test('the documents this service writes under PINT and HR-CIUS are named by their profile', () => {
  for (const profile of ['pint-eu', 'pint-aunz', 'pint-sg', 'pint-jp', 'pint-my', 'pint-ae', 'hr'] as const) {
    const { issues, prepared } = checkEInvoice(JSON.parse(JSON.stringify(EXAMPLE_PROFILE_REQUESTS[profile])));
    assert.deepEqual(issues, [], profile);
    const { customization, notes } = named(bytes(eInvoiceXml(prepared, 'ubl', profile).toString('utf8')));
    assert.deepEqual(
      { name: customization.name, known: customization.known },
      { name: PROFILES[profile].title, known: true },
      profile,
    );
    assert.ok(!notes.some((note) => PLAIN.test(note)), `${profile}: ${notes.join(' | ')}`);
  }
});

test('an identifier nothing here knows is still read, and said to be read, as plain EN 16931', () => {
  const { prepared } = checkEInvoice(JSON.parse(JSON.stringify(EXAMPLE_PROFILE_REQUESTS['pint-sg'])));
  const xml = eInvoiceXml(prepared, 'ubl', 'pint-sg')
    .toString('utf8')
    .replace(/urn:peppol:pint:billing-1@sg-1/g, 'urn:example:unknown:1');
  const { customization, notes } = named(bytes(xml));
  assert.deepEqual(customization, { id: 'urn:example:unknown:1', name: null, known: false });
  assert.equal(notes.filter((note) => PLAIN.test(note)).length, 2, 'inspect and the PDF say so');
});

const pintExamples = join(EINVOICE_ORACLE, 'pint');
test(
  'the 109 official PINT examples: named by their jurisdiction, with its kind (self-billing, non-tax-registered)',
  {
    skip: needsShared('pint'),
  },
  () => {
    let read = 0;
    for (const jurisdiction of ['eu', 'aunz', 'sg', 'jp', 'my', 'ae']) {
      const folder = join(pintExamples, jurisdiction, 'examples');
      for (const file of readdirSync(folder)) {
        const document = new Uint8Array(readFileSync(join(folder, file)));
        const { customization, notes } = named(document);
        const title = PROFILES[`pint-${jurisdiction}` as 'pint-sg'].title;
        const kind = customization.id.includes(':selfbilling-')
          ? `${title}: self-billing`
          : customization.id.includes(':nontaxinvoice-')
            ? `${title}: non-tax-registered invoice`
            : title;
        assert.equal(customization.name, kind, `${jurisdiction}/${file}`);
        assert.ok(!notes.some((note) => PLAIN.test(note)), `${jurisdiction}/${file}`);
        read += 1;
      }
    }
    assert.equal(read, 109);
  },
);
