import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import fc from 'fast-check';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { checkEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { PROFILES } from '../src/einvoice/profiles.js';
import { nationalArbitrary } from '../test/fixtures/nationalArbitrary.js';
const dir = '/tmp/n27/gen'; rmSync(dir, { recursive: true, force: true });
for (const profile of ['xrechnung', 'peppol', 'fr'] as const) {
  const sample = fc.sample(nationalArbitrary(profile), { numRuns: 210, seed: 27 });
  let bad = 0;
  sample.forEach((body, at) => {
    const { prepared, issues } = checkEInvoice(JSON.parse(JSON.stringify({ ...body, invoice_number: `GEN-${at}` })));
    if (issues.length) { if (bad++ < 3) console.log(profile, at, JSON.stringify(issues).slice(0, 300)); return; }
    for (const syntax of ['cii', 'ubl'] as const) {
      if (!PROFILES[profile].formats.includes(syntax)) continue;
      mkdirSync(`${dir}/${profile}-${syntax}`, { recursive: true });
      writeFileSync(`${dir}/${profile}-${syntax}/g${at}.xml`, eInvoiceXml(prepared, syntax, profile));
    }
  });
  console.log(profile, 'refused', bad);
}
