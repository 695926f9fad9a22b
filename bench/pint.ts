/**
 * A Peppol PINT profile beside en16931, in one run: `npm run bench:pint [profile]` (default
 * pint-sg: the SG GST rules, SR/ZR codes, a USD invoice with its GST in SGD). Issue 40's budget:
 * the profile's checks add ≤ 5 ms p50 at 200 lines, off the event loop.
 * 1. In this thread, alternated: the rules alone (checkEInvoiceRules on the same prepared invoice),
 *    then request check + UBL XML; the figure is the PINT p50 minus the en16931 p50.
 * 2. Over HTTP: POST /v1/e-invoice/validate and POST /v1/e-invoice/ubl.xml (priced 0), which run on
 *    the compute pool, not the event loop; the same difference.
 * BENCH_SCALE scales the sample counts.
 */
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_PROFILE_REQUESTS } from '../src/einvoice/example.js';
import type { PintProfile } from '../src/einvoice/formats/pint/jurisdictions.js';
import { checkEInvoiceRules, prepareProfiledEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { scaled } from './scale.js';
import { percentile } from './measure.js';

const profile = (process.argv[2] ?? 'pint-sg') as PintProfile;
const example = EXAMPLE_PROFILE_REQUESTS[profile];
/** The S rate and a zero-rated category each jurisdiction has, and a foreign invoice with its tax currency. */
const MARKET: Record<PintProfile, { rate: number; zero: string; foreign?: object }> = {
  'pint-eu': { rate: 21, zero: 'Z' },
  'pint-aunz': { rate: 10, zero: 'Z' },
  'pint-sg': { rate: 9, zero: 'Z', foreign: { currency: 'USD', tax_currency: { code: 'SGD', exchange_rate: 1.3412 } } },
  'pint-jp': { rate: 10, zero: 'E' },
  'pint-my': { rate: 10, zero: 'E' },
  'pint-ae': { rate: 5, zero: 'Z' },
};
const market = MARKET[profile];
const pint = {
  ...example,
  ...market.foreign,
  invoice_number: `${profile.toUpperCase()}-BENCH-200`,
  line_items: Array.from({ length: 200 }, (_, at) => ({
    description: `Line ${at + 1}: ${'x'.repeat(200)}`,
    quantity: (at % 7) + 1,
    unit_price: profile === 'pint-jp' ? 1000 + at * 25 : 10 + (at % 13) * 1.25,
    unit: at % 2 === 0 ? 'C62' : 'HUR',
    ...(at % 5 === 4 ? { tax_rate: 0, tax_category: market.zero } : { tax_rate: market.rate }),
  })),
};
// EN 16931 reads the seller's tax number from vat_id, with its country prefix (BR-S-02, BR-CO-09).
const seller: Record<string, unknown> = example.seller;
const baseline = {
  ...pint,
  profile: 'en16931',
  seller: { ...seller, vat_id: seller.vat_id ?? `${String(seller.country)}${String(seller.tax_registration_number)}` },
};
const pintPrepared = prepareProfiledEInvoice(pint, 'ubl');
if (pintPrepared.profile !== profile) throw new Error(`prepared as ${pintPrepared.profile}`);
const basePrepared = prepareProfiledEInvoice(baseline, 'ubl');
const failing = checkEInvoiceRules(pintPrepared.prepared, profile);
if (failing.length > 0) throw new Error(`the bench invoice breaks ${profile}: ${JSON.stringify(failing)}`);

const difference = (samples: Record<'en16931' | 'pint', number[]>) => {
  const added = percentile(samples.pint, 50) - percentile(samples.en16931, 50);
  return `${fmt(samples.en16931)} | ${fmt(samples.pint)} | ${added >= 0 ? '+' : ''}${added.toFixed(2)}`;
};
const rows: string[] = [];
const rules = await timeAlternated(
  {
    en16931: () => checkEInvoiceRules(basePrepared.prepared, 'en16931'),
    pint: () => checkEInvoiceRules(pintPrepared.prepared, profile),
  },
  scaled(200),
);
rows.push(`| rules only (this thread) | ${difference(rules)} |`);
const written = await timeAlternated(
  {
    en16931: () => eInvoiceXml(prepareProfiledEInvoice(baseline, 'ubl').prepared, 'ubl', 'en16931'),
    pint: () => eInvoiceXml(prepareProfiledEInvoice(pint, 'ubl').prepared, 'ubl', profile),
  },
  scaled(100),
);
rows.push(`| request check + UBL XML (this thread) | ${difference(written)} |`);

const server = await startBenchServer('v1_e_invoice_ubl_xml=0');
try {
  for (const path of ['/v1/e-invoice/validate', '/v1/e-invoice/ubl.xml']) {
    const [pintBody, baseBody] = [JSON.stringify(pint), JSON.stringify(baseline)];
    const http = await timeAlternated(
      {
        en16931: () => server.post(path, 'application/json', baseBody),
        pint: () => server.post(path, 'application/json', pintBody),
      },
      scaled(50),
    );
    rows.push(`| POST ${path} (compute pool, HTTP) | ${difference(http)} |`);
  }
} finally {
  await server.close();
}
process.stdout.write(
  `${profile} beside en16931, 200 lines, p50 / p95 ms (target: ≤ 5 ms p50 added, off the event loop)\n| work | en16931 | ${profile} | added p50 |\n|---|---|---|---|\n${rows.join('\n')}\n`,
);
