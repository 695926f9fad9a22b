// Renders one invoice full of SSRF probes with the real renderer, in a process of its own, so that
// test/reliability/rendering.test.ts can run it under `strace -f -e trace=connect` (every connect()
// of Node and every Chromium process) or in an empty network namespace (`unshare -rn`).
// Usage: renderProbes.ts <canary origin> <out.pdf>
import { writeFileSync } from 'node:fs';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { createRenderer } from '../../../src/render/renderer.js';
import { probeInvoice, ssrfProbes } from './probes.js';

const [origin = 'http://127.0.0.1:9', out = '/dev/null'] = process.argv.slice(2);
const renderer = await createRenderer({ poolSize: 1 });
try {
  const { pdf, pages } = await renderer.renderPdf(prepareInvoice(probeInvoice(ssrfProbes(origin), 0).invoice));
  writeFileSync(out, pdf);
  // Late fetches (prefetch, fonts) would happen now if they could.
  await new Promise((resolve) => setTimeout(resolve, 500));
  process.stdout.write(`${JSON.stringify({ pages, bytes: pdf.length })}\n`);
} finally {
  await renderer.close();
}
