import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../src/einvoice/example.js';
import { prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { EINVOICE_PROFILES, PROFILES, type EInvoiceProfile } from '../../src/einvoice/profiles.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * The national profiles over HTTP: a request that breaks a national rule is a 400 naming every rule
 * id and field before any payment (the priced app answers 501 only for what passed: it has no
 * payment processor, so a 400 there proves the refusal comes first); validate answers the
 * profile's rules; the same body under en16931 behaves as before.
 */
let free: TestApp;
let priced: TestApp;
const FREE = 'v1_invoice_pdf=0,v1_e_invoice_factur_x_pdf=0,v1_e_invoice_cii_xml=0,v1_e_invoice_ubl_xml=0';

before(
  async () => {
    free = await startTestApp({ PRICES: FREE });
    priced = await startTestApp({});
  },
  { timeout: 60_000 },
);
after(async () => {
  await free?.close();
  await priced?.close();
});

const { xrechnung, peppol, fr } = EXAMPLE_PROFILE_REQUESTS;
const pairs = (issues: { code: string; path: string }[]) => issues.map((issue) => [issue.code, issue.path]);

const BAD: { name: string; route: string; body: Record<string, unknown>; code: string; issues: [string, string][] }[] =
  [
    {
      name: 'a Peppol invoice without electronic addresses',
      route: 'ubl.xml',
      body: {
        ...peppol,
        seller: { ...peppol.seller, electronic_address: undefined },
        buyer: { ...peppol.buyer, electronic_address: undefined },
      },
      code: 'einvoice_rules_failed',
      issues: [
        ['PEPPOL-EN16931-R020', 'seller.electronic_address'],
        ['PEPPOL-EN16931-R010', 'buyer.electronic_address'],
      ],
    },
    {
      name: 'an XRechnung without Leitweg-ID (buyer reference) or seller contact',
      route: 'cii.xml',
      body: {
        ...xrechnung,
        buyer_reference: undefined,
        seller: { ...xrechnung.seller, contact_name: undefined, phone: undefined, email: undefined },
      },
      code: 'einvoice_rules_failed',
      issues: [
        ['BR-DE-5', 'seller.contact_name'],
        ['BR-DE-6', 'seller.phone'],
        ['BR-DE-7', 'seller.email'],
        ['BR-DE-15', 'buyer_reference'],
      ],
    },
    {
      name: 'a French invoice without SIREN, framework or legal notes, in USD',
      route: 'ubl.xml',
      body: {
        ...fr,
        seller: { ...fr.seller, legal_registration: undefined },
        business_process: undefined,
        legal_notes: undefined,
        currency: 'USD',
      },
      code: 'einvoice_rules_failed',
      issues: [
        ['BR-FR-05', 'legal_notes'],
        ['BR-FR-08', 'business_process'],
        ['BR-FR-10', 'seller.legal_registration'],
        ['BR-FR-CO-12', 'currency'],
      ],
    },
    {
      name: 'a GLN with a wrong check digit',
      route: 'ubl.xml',
      body: { ...peppol, buyer: { ...peppol.buyer, electronic_address: { scheme: '0088', id: '5400000000004' } } },
      code: 'validation_failed',
      issues: [['PEPPOL-COMMON-R040', 'buyer.electronic_address.id']],
    },
    {
      name: 'a SIREN of 8 digits',
      route: 'cii.xml',
      body: { ...fr, seller: { ...fr.seller, legal_registration: { scheme: '0002', id: '73282932' } } },
      code: 'validation_failed',
      issues: [['BR-FR-32', 'seller.legal_registration.id']],
    },
    {
      name: 'a Peppol invoice asked for as CII',
      route: 'cii.xml',
      body: peppol,
      code: 'einvoice_rules_failed',
      issues: [['profile_format', 'profile']],
    },
    {
      name: 'an unknown profile',
      route: 'ubl.xml',
      body: { ...EXAMPLE_EINVOICE, profile: 'zugferd-basic' },
      code: 'validation_failed',
      issues: [['invalid_value', 'profile']],
    },
  ];

describe('requests a national profile refuses', () => {
  for (const { name, route, body, code, issues } of BAD) {
    test(`${name}: 400 with every rule id and path, before any payment`, async () => {
      for (const app of [free, priced]) {
        const response = await postJson(`${app.url}/v1/e-invoice/${route}`, body);
        assert.equal(response.status, 400, app === free ? 'free' : 'priced');
        assert.equal(response.headers.get('payment-required'), null);
        const { error } = await response.json();
        assert.equal(error.code, code);
        assert.deepEqual(pairs(error.issues), issues);
      }
    });
  }

  test('validate answers every failing rule of the profile and the rule sets it implements', async () => {
    const body = { ...BAD[0]!.body, buyer_reference: undefined, purchase_order: undefined };
    const response = await postJson(`${free.url}/v1/e-invoice/validate`, body);
    assert.equal(response.status, 200);
    const report = await response.json();
    assert.equal(report.valid, false);
    assert.equal(report.profile, 'peppol');
    assert.equal(report.specification, 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    assert.equal(report.business_process, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    assert.deepEqual(pairs(report.issues), [
      ['PEPPOL-EN16931-R020', 'seller.electronic_address'],
      ['PEPPOL-EN16931-R010', 'buyer.electronic_address'],
      ['PEPPOL-EN16931-R003', 'buyer_reference'],
    ]);
    assert.ok(report.rule_sets.some((set: string) => set.startsWith('OpenPEPPOL BIS Billing 3.0.21')));
    assert.ok(report.rule_sets.some((set: string) => set.startsWith('CEN EN 16931 1.3.16')));
  });

  test('the same bodies under en16931 behave as before: the national rules are not applied', async () => {
    for (const { body, code } of BAD.filter(
      (bad) => bad.code === 'einvoice_rules_failed' && bad.body.profile !== 'fr',
    )) {
      const response = await postJson(`${free.url}/v1/e-invoice/ubl.xml`, { ...body, profile: 'en16931' });
      assert.equal(response.status, 200, code);
    }
  });
});

describe('what the profiles produce', () => {
  test('each profile example is accepted on every route of its formats (501 when priced: no payment processor here)', async () => {
    for (const [profile, body] of Object.entries(EXAMPLE_PROFILE_REQUESTS)) {
      for (const syntax of ['cii', 'ubl'] as const) {
        if (!(PROFILES[profile as EInvoiceProfile].writes as readonly string[]).includes(syntax)) continue;
        const response = await postJson(`${free.url}/v1/e-invoice/${syntax}.xml`, body);
        assert.equal(response.status, 200, `${profile} ${syntax}`);
        assert.equal(
          response.headers.get('content-disposition'),
          `attachment; filename="invoice-${body.invoice_number}-${profile}-${syntax}.xml"`,
        );
        const expected = prepareProfiledEInvoice(body, syntax);
        assert.ok(
          Buffer.from(await response.arrayBuffer()).equals(eInvoiceXml(expected.prepared, syntax, expected.profile)),
        );
        assert.equal((await postJson(`${priced.url}/v1/e-invoice/${syntax}.xml`, body)).status, 501);
      }
      const validate = await (await postJson(`${free.url}/v1/e-invoice/validate`, body)).json();
      assert.equal(validate.valid, true, profile);
      assert.equal(validate.profile, profile);
    }
  });

  test('OpenAPI shows profile on the request schema and one example per profile, named after it', async () => {
    const openapi = await (await fetch(`${free.url}/openapi.json`)).json();
    const content = (path: string) => openapi.paths[path].post.requestBody.content['application/json'];
    const pint = ['pint-eu', 'pint-aunz', 'pint-sg', 'pint-jp', 'pint-my', 'pint-ae', 'hr'];
    assert.deepEqual(Object.keys(content('/v1/e-invoice/ubl.xml').examples), [
      'minimal',
      'xrechnung',
      'peppol',
      'fr',
      ...pint,
    ]);
    assert.deepEqual(Object.keys(content('/v1/e-invoice/cii.xml').examples), ['minimal', 'xrechnung', 'fr']);
    assert.deepEqual(Object.keys(content('/v1/e-invoice/validate').examples), [
      'minimal',
      'xrechnung',
      'peppol',
      'fr',
      'ksef',
      'fatturapa',
      ...pint,
      'verifactu',
    ]);
    const schema = JSON.stringify(openapi);
    assert.ok(
      schema.includes(
        `"enum":${JSON.stringify(['en16931', 'xrechnung', 'peppol', 'fr', 'ksef', 'fatturapa', ...pint, 'verifactu'])}`,
      ),
    );
    const llms = await (await fetch(`${free.url}/llms.txt`)).text();
    // The profile list of llms.txt comes from the format registry (src/einvoice/formats/registry.ts).
    assert.match(llms, /"profile": en16931 \(default; EN 16931 alone\), xrechnung \(XRechnung 3\.0/);
    const fields = await (await fetch(`${free.url}/v1/schema`)).json();
    assert.deepEqual(
      fields.e_invoice_profiles.profiles.map((entry: { profile: string }) => entry.profile),
      ['en16931', 'xrechnung', 'peppol', 'fr', 'ksef', 'fatturapa', ...pint, 'verifactu'],
    );
    const note = fields.fields.find((field: { path: string }) => field.path === 'seller.electronic_address');
    assert.match(note.description, /BT-34/);
    assert.equal(
      fields.fields.find((field: { path: string }) => field.path === 'seller.electronic_address.id').limits.maxLength,
      125,
    );
  });
});

test('the MCP tools take the same profile: validate over MCP answers the national rules', async () => {
  const client = new Client({ name: 'einvoice-national-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${free.url}/mcp`)));
  try {
    const { tools } = await client.listTools();
    for (const name of [
      'v1_e_invoice_cii_xml',
      'v1_e_invoice_ubl_xml',
      'v1_e_invoice_factur_x_pdf',
      'v1_e_invoice_validate',
    ]) {
      const profile = (
        tools.find((tool) => tool.name === name)?.inputSchema.properties as
          Record<string, { enum?: string[] }> | undefined
      )?.profile;
      assert.deepEqual(profile?.enum, [...EINVOICE_PROFILES], name);
    }
    const result = await client.callTool({
      name: 'v1_e_invoice_validate',
      arguments: { ...xrechnung, buyer_reference: undefined } as Record<string, unknown>,
    });
    const report = result.structuredContent as { valid: boolean; issues: { code: string; path: string }[] };
    assert.equal(report.valid, false);
    assert.deepEqual(pairs(report.issues), [['BR-DE-15', 'buyer_reference']]);
  } finally {
    await client.close();
  }
});
