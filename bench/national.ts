// The cost of the national e-invoice checks (issue 27): a 200-line invoice checked and written under
// en16931 and under a national profile in the same run. In process: the rule checks alone
// (checkEInvoiceRules) and check + XML; over HTTP: POST /v1/e-invoice/validate (on a compute
// worker) and POST /v1/e-invoice/ubl.xml (prices 0: the work without a chain). Medians, and the
// difference the national profile adds; the budget is 5 ms p50 at 200 lines.
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_PROFILE_REQUESTS } from '../src/einvoice/example.js';
import { checkEInvoiceRules, prepareProfiledEInvoice } from '../src/einvoice/prepareEInvoice.js';
import type { EInvoiceProfile } from '../src/einvoice/profiles.js';
import { startTestApp } from '../test/support/testApp.js';
import { scaled } from './scale.js';

const LINES = 200;
const RUNS = scaled(41);
const WARMUP = scaled(5);

/** A 200-line variant of a profile's example: mixed rates, units, a discount. */
function twoHundredLines(profile: Exclude<EInvoiceProfile, 'en16931'>) {
  const example = EXAMPLE_PROFILE_REQUESTS[profile];
  const rates = profile === 'fr' ? [20, 10, 5.5] : profile === 'peppol' ? [21, 6, 12] : [19, 7];
  return {
    ...example,
    line_items: Array.from({ length: LINES }, (_, at) => ({
      description: `Line ${at + 1}: ${'x'.repeat(200)}`,
      quantity: (at % 7) + 0.5,
      unit_price: 10 + (at % 13) * 1.25,
      tax_rate: rates[at % rates.length]!,
      unit: at % 2 === 0 ? 'C62' : 'HUR',
    })),
    tax_rate: undefined,
    discount: 123.45,
  };
}

const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

/** Medians of two works timed in alternation (the machine's drift hits both alike). */
async function timePair(base: () => unknown, other: () => unknown): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    for (const [at, work] of [base, other].entries()) {
      const started = performance.now();
      await work();
      if (i >= WARMUP) times[at]!.push(performance.now() - started);
    }
  }
  return [median(times[0]), median(times[1])];
}

const profile = (process.argv[2] ?? 'xrechnung') as Exclude<EInvoiceProfile, 'en16931'>;
const national = twoHundredLines(profile);
const baseline = { ...national, profile: 'en16931' as const };

const nationalPrepared = prepareProfiledEInvoice(national, 'ubl');
const baselinePrepared = prepareProfiledEInvoice(baseline, 'ubl');
const [rulesBase, rulesNational] = await timePair(
  () => checkEInvoiceRules(baselinePrepared.prepared, 'en16931'),
  () => checkEInvoiceRules(nationalPrepared.prepared, profile),
);
const [fullBase, fullNational] = await timePair(
  () => eInvoiceXml(prepareProfiledEInvoice(baseline, 'ubl').prepared, 'ubl', 'en16931'),
  () => eInvoiceXml(prepareProfiledEInvoice(national, 'ubl').prepared, 'ubl', profile),
);

console.log(`${LINES} lines, profile ${profile} beside en16931 (medians of ${RUNS}):`);
console.log(
  `  in process, rules only: en16931 ${rulesBase.toFixed(3)} ms, ${profile} ${rulesNational.toFixed(3)} ms: +${(rulesNational - rulesBase).toFixed(3)} ms`,
);
console.log(
  `  in process, parse + rules + UBL: en16931 ${fullBase.toFixed(2)} ms, ${profile} ${fullNational.toFixed(2)} ms: +${(fullNational - fullBase).toFixed(2)} ms (${(fullNational / fullBase).toFixed(2)}×)`,
);

const app = await startTestApp({
  RATE_LIMIT_CLIENT_BURST: '0',
  RATE_LIMIT_PAYER_BURST: '0',
  PRICES: 'v1_e_invoice_ubl_xml=0',
});
const post = (path: string, text: string) => async () => {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
};
for (const path of ['/v1/e-invoice/validate', '/v1/e-invoice/ubl.xml']) {
  const [base, withNational] = await timePair(
    post(path, JSON.stringify(baseline)),
    post(path, JSON.stringify(national)),
  );
  console.log(
    `  HTTP ${path}: en16931 ${base.toFixed(1)} ms, ${profile} ${withNational.toFixed(1)} ms: +${(withNational - base).toFixed(1)} ms (${(withNational / base).toFixed(2)}×)`,
  );
}
await app.close();
