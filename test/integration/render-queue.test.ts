import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AppError } from '../../src/errors.js';
import { httpAnswerOf } from '../../src/http/errorAnswers.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { findChromium } from '../../src/render/chromiumPath.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { RenderSupervisor } from '../../src/render/renderSupervisor.js';
import { openScratchDir, type ScratchDir } from '../../src/render/scratchDir.js';
import { invoiceWithItems } from '../fixtures/invoices.js';

/** Beyond the pages and the queue, renders are turned away at once with 503 and Retry-After. */
let renderer: Renderer;
const root = mkdtempSync(join(tmpdir(), 'render-queue-'));
let scratch: ScratchDir;
before(async () => {
  // A wait and a deadline far above a render on a loaded machine: only admission may turn one away.
  renderer = await createRenderer({ poolSize: 1, queueLimit: 1, renderTimeoutMs: 90_000 });
  scratch = openScratchDir(root);
});
after(async () => {
  await renderer.close();
  scratch.close();
  rmSync(root, { recursive: true, force: true });
});

test(
  'one page and a queue of one: of four renders at once, two run and two are told to come back',
  { timeout: 240_000 },
  async () => {
    await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE)); // the page is warm
    // async: a render that is not admitted throws at once; allSettled collects it as rejected.
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, async () => renderer.renderPdf(prepareInvoice(invoiceWithItems(200)))),
    );

    const busy = results.filter((result) => result.status === 'rejected');
    for (const result of busy) {
      const error = (result as PromiseRejectedResult).reason;
      assert.ok(error instanceof AppError, String(error));
      assert.equal(error.code, 'renderer_busy');
      const answer = httpAnswerOf(error);
      assert.equal(answer.status, 503);
      assert.match(answer.headers['Retry-After'] ?? '', /^[1-9]\d*$/);
    }
    assert.equal(busy.length, 2, 'poolSize + queueLimit = 2 are admitted');
    for (const result of results.filter((result) => result.status === 'fulfilled')) {
      assert.ok((result as PromiseFulfilledResult<{ pages: number }>).value.pages > 1);
    }

    // Turned-away renders cost nothing: the next one goes straight through.
    assert.equal((await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE))).pages, 1);
    assert.equal(renderer.stats().queued, 0);
  },
);

test(
  'a render withdrawn while it waits for a page frees its queue place at once; the one printing is unaffected',
  { timeout: 120_000 },
  async () => {
    const printing = renderer.renderPdf(prepareInvoice(invoiceWithItems(200)));
    const withdraw = new AbortController();
    const waiting = renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE), { signal: withdraw.signal });
    assert.equal(renderer.hasRoom(), false, 'the page and the one queue place are taken');
    assert.throws(
      () => renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE)),
      (error: unknown) => error instanceof AppError && error.code === 'renderer_busy',
    );

    withdraw.abort(new Error('verify refused'));
    await assert.rejects(waiting, /verify refused/);
    assert.equal(renderer.hasRoom(), true, 'the queue place is free before the print ends');
    assert.equal(renderer.stats().queued, 0);
    assert.ok((await printing).pages > 1);
    assert.equal(renderer.stats().failures, 0, 'a withdrawn render is not a failure');
  },
);

test(
  'sequential renders take the page used last, and a busy page’s neighbour when it is taken',
  { timeout: 60_000 },
  async () => {
    const supervisor = new RenderSupervisor({
      pages: 2,
      queueLimit: 4,
      waitTimeoutMs: 20_000,
      browser: { executablePath: findChromium(), sandbox: true, maxRenders: 100, protocolTimeoutMs: 30_000, scratch },
      log: () => undefined,
    });
    try {
      await supervisor.start();
      // start() resolves with the browser up; the pages open in the background. Until both are
      // open, the second render could wait for the first one's page (on a loaded machine, CI).
      for (let tries = 0; supervisor.stats().pagesIdle < 2; tries++) {
        assert.ok(tries < 600, 'both pages open within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Both pages open: two renders at once take one each.
      const [first, second] = await Promise.all([
        supervisor.run(async (pooled) => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          return pooled;
        }),
        supervisor.run(async (pooled) => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return pooled;
        }),
      ]);
      assert.notEqual(first, second);
      // `first` came back last: one after another, every render takes it (taken in turn, they alternated).
      for (let at = 0; at < 4; at++)
        assert.equal(await supervisor.run(async (pooled) => pooled), first, `render ${at}`);
      // While it is busy, the other one.
      const busy = supervisor.run(async (pooled) => {
        assert.equal(await supervisor.run(async (other) => other), second);
        return pooled;
      });
      assert.equal(await busy, first);
    } finally {
      await supervisor.close();
    }
  },
);
