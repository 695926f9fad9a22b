import type { PreparedBatch } from '../batch/batchRequest.js';
import type { BatchRenderer } from '../batch/produceBatch.js';
import type { PdfRenderer } from './operation.js';
import { asSpecimen } from '../invoice/specimen.js';

/**
 * A batch paid with test money, made of specimens: every invoice carries the specimen note (in
 * its PDF and its XML), and every PDF page is stamped. The batch's own code (src/batch/) is
 * unchanged: it gets marked invoices and a renderer that stamps.
 */
export function specimenBatch(
  batch: PreparedBatch,
  renderer: PdfRenderer | undefined,
): [PreparedBatch, BatchRenderer | undefined] {
  const stamping: BatchRenderer | undefined = renderer && {
    renderPdf: (prepared, options) => renderer.renderPdf(prepared, { ...options, specimen: true }),
  };
  return [{ ...batch, invoices: batch.invoices.map(asSpecimen), specimen: true }, stamping];
}
