/**
 * Which idle page a render takes, in one run: `npm run bench:page-pool`. Two renderers of two
 * pages each, one taking the page used last (the service's order, src/render/renderSupervisor.ts),
 * one taking the pages in turn (the baseline), render the same sequence of distinct invoices (1, 5,
 * 20, 50 and 200 lines in turn, each with its own number, currency and line texts, as real traffic
 * is) one after another; rounds alternate between the two so that drift hits both alike. Reported:
 * each size's p50 and the wall time of all renders. Concurrent traffic keeps every page busy, so
 * only sequential traffic is measured. BENCH_SCALE scales the rounds.
 */
import type { CurrencyCode } from '../src/invoice/currencies.js';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { prepareInvoice } from '../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../src/render/renderer.js';
import type { IdleOrder } from '../src/render/renderSupervisor.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { percentile } from './measure.js';
import { scaled } from './scale.js';

const SIZES = [1, 5, 20, 50, 200] as const;
const CURRENCIES: CurrencyCode[] = ['EUR', 'USD', 'GBP'];
const ROUNDS = scaled(8, 2);
const PER_ROUND = scaled(10);

let serial = 0;
function distinct(lines: number): InvoiceInput {
  serial++;
  const invoice = invoiceWithItems(lines, { currency: CURRENCIES[serial % CURRENCIES.length]! });
  return {
    ...invoice,
    invoice_number: `INV-PAGE-${serial}`,
    line_items: invoice.line_items.map((line, at) => ({
      ...line,
      description: `${line.description} (${serial}.${at})`,
    })),
  };
}

const orders: IdleOrder[] = ['last-used', 'in-turn'];
const renderers = new Map<IdleOrder, Renderer>();
for (const order of orders) renderers.set(order, await createRenderer({ poolSize: 2, idleOrder: order }));
const samples = new Map(orders.map((order) => [order, new Map(SIZES.map((size) => [size, [] as number[]]))]));
const wall = new Map(orders.map((order) => [order, 0]));
try {
  for (const renderer of renderers.values())
    for (let at = 0; at < scaled(2); at++)
      for (const size of SIZES) await renderer.renderPdf(prepareInvoice(distinct(size)));
  for (let round = 0; round < ROUNDS; round++) {
    for (const order of round % 2 === 0 ? orders : [...orders].reverse()) {
      const renderer = renderers.get(order)!;
      const started = performance.now();
      for (let at = 0; at < PER_ROUND; at++)
        for (const size of SIZES)
          samples
            .get(order)!
            .get(size)!
            .push((await renderer.renderPdf(prepareInvoice(distinct(size)))).ms);
      wall.set(order, wall.get(order)! + performance.now() - started);
    }
  }
  const renders = ROUNDS * PER_ROUND * SIZES.length;
  process.stdout.write(
    `idle page order, ${renders} sequential renders each, p50 ms per size\n| order | ${SIZES.map((size) => `${size} line${size === 1 ? '' : 's'}`).join(' | ')} | wall time |\n|---|${SIZES.map(() => '---|').join('')}---|\n`,
  );
  for (const order of orders) {
    const cells = SIZES.map((size) => percentile(samples.get(order)!.get(size)!, 50).toFixed(1));
    process.stdout.write(`| ${order} | ${cells.join(' | ')} | ${(wall.get(order)! / 1000).toFixed(2)} s |\n`);
  }
  const ratio = wall.get('last-used')! / wall.get('in-turn')!;
  process.stdout.write(`\nlast-used / in-turn wall time: ${ratio.toFixed(3)}×\n`);
} finally {
  for (const renderer of renderers.values()) await renderer.close();
}
