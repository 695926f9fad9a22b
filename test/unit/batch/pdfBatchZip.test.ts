// A rendered PDF batch's ZIP is written off the event loop: produceBatch hands the job to
// `assembleZip` (the app passes the compute pool's), and the real operation worker on a real
// compute pool writes the same bytes as writing it inline.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareBatch } from '../../../src/batch/batchRequest.js';
import {
  fromPooled,
  writePdfBatchZip,
  type PdfBatchZipJob,
  type PooledBatchFile,
} from '../../../src/batch/pdfBatchZip.js';
import { produceBatch, type BatchRenderer } from '../../../src/batch/produceBatch.js';
import { createComputePool } from '../../../src/compute/computePool.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';

const batchOf = (n: number) =>
  prepareBatch({
    format: 'pdf',
    invoices: Array.from({ length: n }, (_, i) => ({ ...EXAMPLE_INVOICE, invoice_number: `Z-${i}` })),
  });

/** A fake renderer (named so): a few KB of "PDF" bytes per invoice, at once. */
const fakeRenderer: BatchRenderer = {
  renderPdf: async (prepared) => ({
    pdf: Buffer.alloc(4096 + prepared.invoice.invoice_number.length, prepared.invoice.invoice_number),
    pages: 2,
  }),
};

test('produceBatch hands a PDF batch to assembleZip, which writes what the inline default writes', async () => {
  const jobs: PdfBatchZipJob[] = [];
  const viaHook = await produceBatch(fakeRenderer, batchOf(5), {
    assembleZip: async (job) => {
      jobs.push(job);
      return writePdfBatchZip(job);
    },
  });
  assert.equal(jobs.length, 1, 'the whole archive is one job');
  assert.deepEqual(
    jobs[0]!.pdfBatchZip.files.map(({ name, pages }) => [name, pages]),
    Array.from({ length: 5 }, (_, i) => [`invoice-Z-${i}.pdf`, 2]),
  );
  const inline = await produceBatch(fakeRenderer, batchOf(5));
  assert.equal(viaHook.count, 5);
  assert.ok(viaHook.body.equals(inline.body), 'byte for byte');
});

test('the operation worker on a compute pool writes the same ZIP as inline', async () => {
  const pool = createComputePool({
    threads: 1,
    maxQueued: 4,
    jobModule: new URL('../../../src/operations/operationWorker.ts', import.meta.url),
  });
  try {
    let job: PdfBatchZipJob | undefined;
    const inline = await produceBatch(fakeRenderer, batchOf(7), {
      assembleZip: async (built) => writePdfBatchZip((job = built)),
    });
    const pooled = fromPooled((await pool.run(job!, 'high')) as PooledBatchFile);
    assert.ok(Buffer.isBuffer(pooled.body));
    assert.equal(pooled.count, 7);
    assert.ok(pooled.body.equals(inline.body), 'the pooled archive is byte for byte the inline one');
  } finally {
    await pool.close();
  }
});
