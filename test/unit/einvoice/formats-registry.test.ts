import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { FORMATS, OWN_SYNTAX_READERS } from '../../../src/einvoice/formats/registry.js';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { checkEInvoice, prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { DEFAULT_PROFILE, describeProfiles, EINVOICE_PROFILES } from '../../../src/einvoice/profiles.js';

/**
 * What every format module of src/einvoice/formats/registry.ts must keep true, so that a module
 * added by one folder and one registry line is wired everywhere the registry feeds.
 */
test('the profile enum and /v1/schema list are the registry, the first module the default', () => {
  assert.deepEqual(
    EINVOICE_PROFILES,
    FORMATS.map((format) => format.id),
  );
  assert.equal(DEFAULT_PROFILE, FORMATS[0].id);
  assert.deepEqual(
    describeProfiles().profiles.map((profile) => [profile.profile, profile.specification, profile.rule_sets]),
    FORMATS.map((format) => [format.id, format.specification, format.ruleSets]),
  );
});

test("each module's example passes its rules, and written in each XML syntax it writes, inspect recognises it as its own", () => {
  for (const format of FORMATS) {
    if (!('example' in format)) continue;
    assert.deepEqual(checkEInvoice(format.example).issues, [], format.id);
    for (const syntax of (['cii', 'ubl'] as const).filter((xml) =>
      (format.writes as readonly string[]).includes(xml),
    )) {
      const { prepared, profile } = prepareProfiledEInvoice(format.example, syntax);
      const answer = inspectEInvoice(eInvoiceXml(prepared, syntax, profile), 'xml');
      assert.equal(answer.reissue.profile, format.id, `${format.id} as ${syntax}`);
      assert.equal(answer.customization.id, format.specification, `${format.id} as ${syntax}`);
    }
  }
});

test('a module lists the official rule sets its rules follow, and the fields they ask for', () => {
  for (const format of FORMATS) {
    assert.ok(format.ruleSets.length > 0, format.id);
    if (format.rules.length > 0) assert.ok(format.requiredFields.length > 0, format.id);
  }
});

test('every own-syntax reader has a marker and a description for einvoice_unknown_root', () => {
  assert.ok(OWN_SYNTAX_READERS.length > 0);
  for (const reader of OWN_SYNTAX_READERS) {
    assert.ok(reader.marker.length > 5);
    assert.ok(reader.describe.length > 5);
  }
});
