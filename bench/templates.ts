/**
 * Customer designs (docs/templates.md), in one run: `npm run bench:templates`. Starts the service
 * itself (renderer with two pages, one compute thread, /v1/invoice.pdf priced 0) on 127.0.0.1 and
 * times, alternated with a plain render of the same invoice so that drift hits both alike:
 * 1. (preview) POST /v1/templates/preview with the house style given inline (classic with a changed
 *    stylesheet and header partial, test/fixtures/housePackages.ts) against POST /v1/invoice.pdf
 *    in built-in classic, at 1 and 20 lines: the same package every call (a designer looking again)
 *    and a new package every call (a designer typing: a new id, so checked and compiled anew).
 * 2. (stored) POST /v1/invoice.pdf with that package stored (PUT /v1/templates, "design": "sha256:…")
 *    against built-in classic at 1, 20 and 200 lines (issue 49's target: ≤ 1.05×), beside what a
 *    loaded machine does not blur: the CPU per call (Node's threads and Chromium's,
 *    bench/processCpu.ts) and the baseline's own spread, the ratio of the p50s of two halves of
 *    the classic calls (A/A: how far apart two measures of the same work fall); and the median of
 *    the paired ratios (each round's design call over its classic call), with its A/A.
 * 2b. (instances) The stored part's p50 ratio on several fresh services, one after another, and
 *    the median of their ratios (bench/storedDesignInstances.ts): one service's ratio measures
 *    that service (BENCH_INSTANCES sets how many; 4, or 1 at a tiny BENCH_SCALE).
 * 3. (check) The print-time check alone (bench/printCheck.ts) at 1, 20 and 200 lines (issue 49's target:
 *    ≤ 2 ms at 200), p50 / p95 over 100-200 prints: the text's check a covered invoice gets, as
 *    Node's work (the traced fill over a plain one, the facts, the decision, the expression; CPU
 *    time, and wall) plus the reading inside the page on a document just written; the same check
 *    sent alone as Node waits for it; and the full check an uncovered invoice gets.
 * 4. (prints) Where a stored design's print spends more than classic's: the same invoice printed as
 *    classic, as the design unchecked, with the text's check and with the full check.
 * `npx tsx bench/templates.ts stored` (or preview, instances, check, prints; several may be named) runs those
 * parts alone; the stored part prints the load average when it starts.
 * The figure is the ratio of the p50s. BENCH_SCALE scales the sample counts.
 */
import { loadavg } from 'node:os';
import { HOUSE_STYLE } from '../test/fixtures/housePackages.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { scaled } from './scale.js';
import { invoiceOf, storeDesign, timeInstances } from './storedDesignInstances.js';
import { percentile } from './measure.js';
import { p50, p50p95, timeDesignPrints, timePrintCheck } from './printCheck.js';
import { browserCpuMs, nodeCpuMs } from './processCpu.js';

/** `npx tsx bench/templates.ts check` (or preview, stored, instances, prints; several may be named): those parts alone; none named, all five. */
const PARTS = ['preview', 'stored', 'instances', 'check', 'prints'] as const;
const asked = process.argv.slice(2);
const unknown = asked.find((part) => !(PARTS as readonly string[]).includes(part));
if (unknown) throw new Error(`unknown part ${unknown}: one of ${PARTS.join(', ')}`);
const runs = (part: (typeof PARTS)[number]) => asked.length === 0 || asked.includes(part);

const server = await startBenchServer('v1_invoice_pdf=0');
const json = (body: unknown) => JSON.stringify(body);
const ratio = (samples: Record<'plain' | 'design', number[]>) =>
  percentile(samples.design, 50) / percentile(samples.plain, 50);
const row = (name: string, lines: number, samples: Record<'plain' | 'design', number[]>) =>
  `| ${name} | ${lines} | ${fmt(samples.plain, 1)} | ${fmt(samples.design, 1)} | ${ratio(samples).toFixed(2)}× |\n`;
async function timePreview(): Promise<void> {
  process.stdout.write('| case | lines | plain classic p50 / p95 ms | design p50 / p95 ms | p50 ratio |\n');
  process.stdout.write('|---|---|---|---|---|\n');
  let edit = 0;
  for (const lines of [1, 20]) {
    const invoice = invoiceOf(lines);
    const plain = () => server.post('/v1/invoice.pdf', 'application/json', json(invoice));
    const same = await timeAlternated(
      {
        plain,
        design: () => server.post('/v1/templates/preview', 'application/json', json({ design: HOUSE_STYLE, invoice })),
      },
      scaled(30),
    );
    process.stdout.write(row('preview, same package', lines, same));
    const typing = await timeAlternated(
      {
        plain,
        design: () => {
          // A designer's next keystroke: the stylesheet changed, so the package (and its id) is new.
          const css = `${HOUSE_STYLE.css}\n.house-tagline { letter-spacing: ${(edit++ % 1000) / 1000}pt; }`;
          return server.post(
            '/v1/templates/preview',
            'application/json',
            json({ design: { ...HOUSE_STYLE, css }, invoice }),
          );
        },
      },
      scaled(30),
    );
    process.stdout.write(row('preview, new package each call', lines, typing));
  }
}

async function timeStored(): Promise<void> {
  const id = await storeDesign(server, HOUSE_STYLE);
  process.stdout.write(
    `\nLoad average at the start: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(
        ', ',
      )}\n\n| stored design on /v1/invoice.pdf | lines | classic p50 / p95 ms | design p50 / p95 ms | p50 ratio | median of paired ratios (A/A) | CPU per call classic / design (Node + Chromium) | CPU ratio | A/A p50 ratio of classic | print-time checks of the design, text / full |\n|---|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const lines of [1, 20, 200]) {
    const invoice = invoiceOf(lines);
    const bodies = { plain: json(invoice), design: json({ ...invoice, design: id }) };
    const checksBefore = { ...server.designChecks };
    const cpu = { plain: { node: 0, browser: 0 }, design: { node: 0, browser: 0 } };
    const timed = (which: 'plain' | 'design') => async () => {
      const node = nodeCpuMs();
      const browser = browserCpuMs();
      const ms = await server.post('/v1/invoice.pdf', 'application/json', bodies[which]);
      cpu[which].node += nodeCpuMs() - node;
      cpu[which].browser += browserCpuMs() - browser;
      return ms;
    };
    // At least 2 pairs: the A/A ratio compares two halves of the classic calls.
    const pairs = scaled(lines === 200 ? 16 : 30, 2);
    const samples = await timeAlternated({ plain: timed('plain'), design: timed('design') }, pairs);
    // timeAlternated ran warm-up rounds too: CPU per call over all of them.
    const calls = pairs + scaled(10);
    const total = (spent: { node: number; browser: number }) => spent.node + spent.browser;
    const perCall = (spent: { node: number; browser: number }) =>
      `${(total(spent) / calls).toFixed(1)} ms (${(spent.node / calls).toFixed(1)} + ${(spent.browser / calls).toFixed(1)})`;
    const halves = [samples.plain.filter((_, at) => at % 2 === 0), samples.plain.filter((_, at) => at % 2 === 1)];
    const aa = percentile(halves[0]!, 50) / percentile(halves[1]!, 50);
    // Paired: the median of each round's design / classic (calls next to each other share the
    // machine's load of the moment), beside the same of two classic calls next to each other.
    const paired = percentile(
      samples.design.map((ms, at) => ms / samples.plain[at]!),
      50,
    );
    const pairedAa = percentile(
      halves[1]!.map((ms, at) => halves[0]![at]! / ms),
      50,
    );
    process.stdout.write(
      `| house style | ${lines} | ${fmt(samples.plain, 1)} | ${fmt(samples.design, 1)} | ${ratio(samples).toFixed(2)}× | ${paired.toFixed(2)}× (A/A ${pairedAa.toFixed(2)}×) | ${perCall(cpu.plain)} / ${perCall(cpu.design)} | ${(total(cpu.design) / total(cpu.plain)).toFixed(2)}× | ${aa.toFixed(2)}× | ${server.designChecks.text - checksBefore.text} / ${server.designChecks.full - checksBefore.full} |\n`,
    );
  }
  if (server.designChecks.why.size > 0)
    process.stdout.write(`\nWhy full checks ran: ${JSON.stringify([...server.designChecks.why])}\n`);
}

async function timeCheck(): Promise<void> {
  process.stdout.write(
    '\n| print-time check of a covered print | lines | facts | the check: Node CPU + in the page, p50 / p95 ms | Node (traced fill over plain, facts, decision, expression) CPU p50 / p95 | Node wall p50 / p95 | in the page p50 / p95 | sent alone, as Node waits p50 / p95 | Chromium CPU per text read | uncovered: full check, p50 ms with the layout / page laid out | Chromium CPU, with layout / laid out |\n|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const lines of [1, 20, 200]) {
    const found = await timePrintCheck(lines, scaled(lines === 200 ? 200 : 100));
    process.stdout.write(
      `| house style | ${lines} | ${found.facts} | ${p50p95(found.check)} | ${p50p95(found.nodeCpu)} | ${p50p95(found.node)} | ${p50p95(found.inPage)} | ${p50p95(found.roundTrip)} | ${found.cpu.text.toFixed(1)} ms | ${p50(found.withLayout)} / ${p50(found.laidOut)} | ${found.cpu.withLayout.toFixed(1)} / ${found.cpu.laidOut.toFixed(1)} ms |\n`,
    );
  }
}

async function timePrints(): Promise<void> {
  process.stdout.write(
    '\n| one page, printHtml | lines | p50 ms | Chromium CPU per print | CPU / classic |\n|---|---|---|---|---|\n',
  );
  for (const lines of [1, 20, 200]) {
    const ways = await timeDesignPrints(lines, scaled(lines === 200 ? 12 : 20));
    for (const [way, { wall, cpu }] of Object.entries(ways))
      process.stdout.write(
        `| ${way} | ${lines} | ${p50(wall)} | ${cpu.toFixed(1)} ms | ${(cpu / ways.classic.cpu).toFixed(2)}× |\n`,
      );
  }
}

try {
  if (runs('preview')) await timePreview();
  if (runs('stored')) await timeStored();
  if (runs('instances')) await timeInstances((text) => process.stdout.write(text));
  if (runs('check')) await timeCheck();
  if (runs('prints')) await timePrints();
} finally {
  await server.close();
}
