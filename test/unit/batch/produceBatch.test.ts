// produceBatch's scheduling with a named fake renderer (the real renderer prints batches in
// test/e2e/paid-batch.test.ts): bounded concurrency, item order, admission, failures named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareBatch } from '../../../src/batch/batchRequest.js';
import { produceBatch, type BatchRenderer } from '../../../src/batch/produceBatch.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { AppError } from '../../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { zipEntries } from '../../support/zipEntries.js';

const batchOf = (n: number, format = 'pdf', base: object = EXAMPLE_INVOICE) =>
  prepareBatch({ format, invoices: Array.from({ length: n }, (_, i) => ({ ...base, invoice_number: `N-${i}` })) });

/** A fake renderer: "PDF" bytes naming the invoice, finishing in a shuffled order; counts renders in flight. */
function fakeRenderer(options: { busyTimes?: number; failOn?: string; refuseFirst?: boolean } = {}) {
  let inFlight = 0;
  let maxInFlight = 0;
  let busy = options.busyTimes ?? 0;
  let calls = 0;
  const renderer: BatchRenderer = {
    renderPdf(prepared) {
      calls++;
      if (options.refuseFirst) throw new AppError('renderer_busy', 'no room');
      if (calls > 1 && busy > 0) {
        busy--;
        throw new AppError('renderer_busy', 'no room');
      }
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const number = prepared.invoice.invoice_number;
      return new Promise((resolve, reject) =>
        setTimeout(
          () => {
            inFlight--;
            if (number === options.failOn) reject(new AppError('render_timeout', 'too slow'));
            else resolve({ pdf: Buffer.from(`%PDF ${number}`), pages: 1 });
          },
          (Number(number.slice(2)) * 7) % 5,
        ),
      );
    },
  };
  return { renderer, stats: () => ({ maxInFlight, calls }) };
}

test('files in item order whatever order the renders finish in, at most `concurrency` at once, manifest last', async () => {
  const { renderer, stats } = fakeRenderer();
  const { body, count } = await produceBatch(renderer, batchOf(12), { concurrency: 3 });
  assert.equal(count, 12);
  const names = zipEntries(body).map(([name]) => name);
  assert.deepEqual(names, [...Array.from({ length: 12 }, (_, i) => `invoice-N-${i}.pdf`), 'manifest.json']);
  assert.equal(zipEntries(body)[5]![1], '%PDF N-5');
  assert.equal(stats().maxInFlight, 3);
  const manifest = JSON.parse(zipEntries(body).at(-1)![1]);
  assert.equal(manifest.files[11].invoice_number, 'N-11');
  assert.equal(manifest.files[11].total, '10803.74');
  const again = await produceBatch(fakeRenderer().renderer, batchOf(12), { concurrency: 1 });
  assert.deepEqual(again.body, body, 'the same bytes, whatever the concurrency');
});

test('the first render is admitted synchronously: a full renderer throws before a promise exists', () => {
  assert.throws(
    () => produceBatch(fakeRenderer({ refuseFirst: true }).renderer, batchOf(3)),
    (error: AppError) => error.code === 'renderer_busy',
  );
});

test('a later item turned away by a busy renderer waits and is admitted', async () => {
  const { renderer, stats } = fakeRenderer({ busyTimes: 3 });
  const { count } = await produceBatch(renderer, batchOf(4), { concurrency: 2 });
  assert.equal(count, 4);
  assert.equal(stats().calls, 4 + 3);
});

test('a failing item fails the batch with its own code, naming the item; later items are not started', async () => {
  const { renderer, stats } = fakeRenderer({ failOn: 'N-2' });
  await assert.rejects(produceBatch(renderer, batchOf(20), { concurrency: 2 }), (error: AppError) => {
    assert.equal(error.code, 'render_timeout');
    assert.match(error.message, /^invoices\[2\] \(invoice N-2\) could not be rendered: too slow/);
    assert.deepEqual(error.issues, [{ path: 'invoices[2]', code: 'render_timeout', message: 'too slow' }]);
    return true;
  });
  assert.ok(stats().calls < 20, `${stats().calls} renders started`);
});

test('an aborted batch stops starting renders', async () => {
  const controller = new AbortController();
  const { renderer, stats } = fakeRenderer();
  const running = produceBatch(renderer, batchOf(30), { concurrency: 2, signal: controller.signal });
  controller.abort(new Error('verify refused'));
  await assert.rejects(running, /verify refused/);
  assert.ok(stats().calls <= 3, `${stats().calls} renders started`);
});

test('XML formats need no renderer and deflate their files', async () => {
  const { body } = await produceBatch(undefined, batchOf(2, 'ubl', EXAMPLE_EINVOICE));
  const [[name, xml]] = zipEntries(body) as [[string, string]];
  assert.equal(name, 'invoice-N-0-ubl.xml');
  assert.match(xml, /<Invoice/);
  assert.throws(() => produceBatch(undefined, batchOf(1)), /not available/);
});

test('each e-invoice item is written under its own profile: its customization in the XML (the hybrid: factur-x-pdf.test.ts)', async () => {
  const items = [EXAMPLE_EINVOICE, { ...EXAMPLE_PROFILE_REQUESTS.xrechnung, invoice_number: 'X-1' }];
  const ubl = zipEntries((await produceBatch(undefined, prepareBatch({ format: 'ubl', invoices: items }))).body);
  assert.match(ubl[0]![1], /<cbc:CustomizationID>urn:cen\.eu:en16931:2017<\/cbc:CustomizationID>/);
  assert.match(
    ubl[1]![1],
    /<cbc:CustomizationID>urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.0<\/cbc:CustomizationID>/,
  );
});
