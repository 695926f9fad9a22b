import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { prepareInvoice } from '../src/invoice/prepareInvoice.js';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { chromiumArgs } from '../src/render/browser.js';
import { findChromium, headlessMode } from '../src/render/chromiumPath.js';
import { lockDownPage } from '../src/render/lockDownPage.js';
import { paperFor } from '../src/render/paper.js';
import { printParams, type PrintParams } from '../src/render/printOptions.js';
import { post } from './httpPost.js';
import { pagePrinter, type PagePrinter, type PrintCalls } from './printCalls.js';
import { TAGGED_DEFAULT } from '../src/render/renderDefaults.js';
import { createRenderer, type Renderer, type RendererOptions } from '../src/render/renderer.js';
import { openScratchDir } from '../src/render/scratchDir.js';
import { loadInvoiceTemplates } from '../src/render/templates.js';

/**
 * What the benchmark measures: something that turns an invoice request body into PDF bytes.
 * `service` is the real app over HTTP (POST /v1/invoice.pdf, priced at 0 so no payment round trip); `http` posts
 * to a running server (the hook for measuring the whole stack); `floor` and `naive` are the
 * baselines, printing the very same HTML with the very same options.
 */
export interface BenchTarget {
  name: string;
  /** Resolves with the size of the PDF. */
  render(body: InvoiceInput): Promise<number>;
  /** Pid of the browser whose process tree is measured; all Chromium below this process when absent. */
  browserPid?(): number | undefined;
  close(): Promise<void>;
}

/** Every paid route priced at 0 for the benchmark: the payment round trip is left out. */
const FREE_FOR_BENCH = 'v1_invoice_pdf=0,v1_e_invoice_factur_x_pdf=0,v1_e_invoice_cii_xml=0,v1_e_invoice_ubl_xml=0';

/**
 * The bench is one client sending as fast as the service answers, which is what the rate limits
 * exist to refuse (429 rate_limited): the app it measures runs with both limits off, whatever the
 * defaults say. The cost of the limiter itself is a token bucket lookup per request.
 */
export const BENCH_LIMITS = { RATE_LIMIT_CLIENT_BURST: '0', RATE_LIMIT_PAYER_BURST: '0' };

/**
 * The real app over HTTP on loopback: POST /v1/invoice.pdf with JSON parsing, validation, totals,
 * rendering and the PDF response — everything but the payment round trip, which is left out by
 * pricing the route at 0 for the benchmark (FREE_FOR_BENCH).
 */

export async function serviceTarget(
  options: RendererOptions = {},
): Promise<BenchTarget & { renderer: Renderer; baseUrl: string }> {
  const renderer = await createRenderer(options);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    PORT: '0',
    PRICES: FREE_FOR_BENCH,
    ...BENCH_LIMITS,
  });
  const { app } = createApp({ config, logger: createLogger('silent'), renderer });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = httpTarget(`${baseUrl}/v1/invoice.pdf`);
  return {
    name: 'service',
    renderer,
    baseUrl,
    render: http.render,
    browserPid: () => renderer.browserPid(),
    close: async () => {
      await http.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await renderer.close();
    },
  };
}

/**
 * POST /v1/invoice.pdf of a running server, e.g. BENCH_HTTP_URL=http://127.0.0.1:8080/v1/invoice.pdf
 * against a server started with PRICES=v1_invoice_pdf=0 (free, so no payment round trip), or with
 * BENCH_HTTP_HEADERS='{"PAYMENT-SIGNATURE":"..."}' where a payment is set up.
 */
export function httpTarget(url: string, headers: Record<string, string> = {}): BenchTarget {
  // node:http with keep-alive rather than fetch: the load generator shares the machine's two cores
  // with the service, and undici's fetch (web streams) costs ≈ 2 ms of CPU per request here, which
  // the floor does not pay. A remote client would cost the service nothing.
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const target = new URL(url);
  return {
    name: 'http',
    async render(body) {
      const { status, bytes } = await post(agent, target, Buffer.from(JSON.stringify(body)), headers);
      if (status !== 200) throw new Error(`${url} answered ${status}`);
      return bytes;
    },
    close: async () => agent.destroy(),
  };
}

/**
 * Another route of the service target's app (same renderer, same pool): `name` in the report,
 * `adapt` turns the benchmark body into what the route needs (the e-invoice routes need countries
 * and VAT identifiers, see enEInvoiceBody).
 */
export function routeTarget(
  name: string,
  url: string,
  adapt: (body: InvoiceInput) => InvoiceInput = (body) => body,
): BenchTarget {
  const http = httpTarget(url);
  const adapted = new WeakMap<InvoiceInput, InvoiceInput>();
  return {
    name,
    render(body) {
      let input = adapted.get(body);
      if (!input) adapted.set(body, (input = adapt(body)));
      return http.render(input);
    },
    close: http.close,
  };
}

/** The benchmark invoice with what EN 16931 adds (countries, VAT ids): the same for the plain PDF it is compared with. */
export function en16931Body(body: InvoiceInput): InvoiceInput {
  return {
    ...body,
    seller: { ...body.seller, country: 'DE', vat_id: 'DE123456789' },
    buyer: { ...body.buyer, country: 'DE', vat_id: 'DE987654321' },
    due_date: body.due_date ?? body.issue_date,
  };
}

/** The HTML and print options the service would use for a body, computed once per body (outside the timing). */
function jobs(tagged: boolean) {
  const templates = loadInvoiceTemplates();
  const cache = new WeakMap<InvoiceInput, { html: string; params: PrintParams }>();
  return {
    get(body: InvoiceInput) {
      let job = cache.get(body);
      if (!job) {
        const prepared = prepareInvoice(body);
        const view = templates.view(prepared);
        job = {
          html: templates.printPage(view),
          params: printParams(paperFor(prepared.totals.currency, 'auto'), tagged),
        };
        cache.set(body, job);
      }
      return job;
    },
    close: () => templates.close(),
  };
}

async function launch(profileDir: string, tmpDir: string, executablePath = findChromium()): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: headlessMode(executablePath),
    pipe: true,
    userDataDir: profileDir,
    args: chromiumArgs(),
    env: { ...process.env, TMPDIR: tmpDir },
  });
}

/**
 * The floor: nothing but printing, on warm, locked-down pages of one browser (no HTTP, queue,
 * validation or metadata). `standard` prints with page.setContent + page.pdf, the raw floor;
 * `lean` with the service's own two DevTools calls, a stricter floor.
 */
export async function floorTarget(
  pages: number,
  calls: PrintCalls = 'standard',
  tagged = TAGGED_DEFAULT,
): Promise<BenchTarget> {
  const scratch = openScratchDir();
  const browser = await launch(scratch.profile(), scratch.path);
  const idle: PagePrinter[] = [];
  for (let index = 0; index < pages; index++) {
    const page = await browser.newPage();
    await lockDownPage(page);
    idle.push(await pagePrinter(page, calls));
  }
  const waiting: ((printer: PagePrinter) => void)[] = [];
  const take = () =>
    idle.length ? Promise.resolve(idle.pop()!) : new Promise<PagePrinter>((resolve) => waiting.push(resolve));
  const give = (printer: PagePrinter) => (waiting.length ? waiting.shift()!(printer) : idle.push(printer));
  const work = jobs(tagged);
  return {
    name: calls === 'lean' ? 'floor-lean' : 'floor',
    async render(body) {
      const job = work.get(body);
      const print = await take();
      try {
        return (await print(job.html, job.params)).length;
      } finally {
        give(print);
      }
    },
    browserPid: () => browser.process()?.pid,
    async close() {
      work.close();
      await browser.close();
      scratch.close();
    },
  };
}

/**
 * Naive: a browser launched per request, as a first implementation often does, printing with
 * page.setContent + page.pdf. By default with the service's own browser binary (the cost of
 * launching, nothing else); `executablePath` measures another one, e.g. the full Chromium that
 * `puppeteer.launch()` users get.
 */
export function naiveTarget(options: { name?: string; executablePath?: string; tagged?: boolean } = {}): BenchTarget {
  const scratch = openScratchDir();
  const work = jobs(options.tagged ?? TAGGED_DEFAULT);
  return {
    name: options.name ?? 'naive',
    async render(body) {
      const job = work.get(body);
      const profile = scratch.profile();
      const browser = await launch(profile, scratch.path, options.executablePath);
      try {
        const page = await browser.newPage();
        await lockDownPage(page);
        const print = await pagePrinter(page, 'standard');
        return (await print(job.html, job.params)).length;
      } finally {
        await browser.close();
        scratch.remove(profile);
      }
    },
    async close() {
      work.close();
      scratch.close();
    },
  };
}
