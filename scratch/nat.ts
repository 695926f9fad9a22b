import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { checkEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { PROFILES } from '../src/einvoice/profiles.js';
import { NATIONAL_EXAMPLES } from '../test/fixtures/nationalExamples.js';
const dir = '/tmp/n27/nat'; rmSync(dir, { recursive: true, force: true });
for (const [name, body] of Object.entries(NATIONAL_EXAMPLES)) {
  const { prepared, profile, issues } = checkEInvoice(JSON.parse(JSON.stringify(body)));
  if (issues.length) console.log(name, JSON.stringify(issues));
  for (const syntax of ['cii', 'ubl'] as const) {
    if (!PROFILES[profile].formats.includes(syntax)) continue;
    mkdirSync(`${dir}/${profile}-${syntax}`, { recursive: true });
    writeFileSync(`${dir}/${profile}-${syntax}/${name}.xml`, eInvoiceXml(prepared, syntax, profile));
  }
}
