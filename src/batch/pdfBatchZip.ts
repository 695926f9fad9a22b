import { createHash } from 'node:crypto';
import { minorToDecimal } from '../invoice/money.js';
import { BATCH_FORMATS, type BatchFormat } from './batchFormats.js';
import type { PreparedBatch } from './batchRequest.js';
import { fileNamesOf } from './fileNames.js';
import { manifestBytes, type ManifestFile } from './manifest.js';
import { ZipWriter } from './zipWriter.js';

/** What a ZIP assembly yields: the archive and how many invoice files it holds. */
export interface BatchFile {
  contentType: 'application/zip';
  body: Buffer;
  count: number;
}

/** A BatchFile as it crosses back from a worker: its body arrives as a Uint8Array (structured clone). */
export type PooledBatchFile = Omit<BatchFile, 'body'> & { body: Uint8Array };

/** The BatchFile of a pooled answer, its body a Buffer over the same bytes (no copy). */
export const fromPooled = (file: PooledBatchFile): BatchFile => ({
  ...file,
  body: Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength),
});

/**
 * A rendered batch's ZIP as plain data, to be written on a compute worker (the operation worker
 * module runs `writePdfBatchZip` on it): the rendered files in item order, each with its name,
 * date and the invoice fields manifest.json lists. Hashing (SHA-256 of every file for the
 * manifest, CRC-32 for the ZIP) and the archive's copy are the CPU work taken off the event loop.
 */
export interface PdfBatchZipJob {
  pdfBatchZip: {
    format: BatchFormat;
    files: {
      name: string;
      bytes: Uint8Array;
      pages: number;
      date: string;
      invoice: Pick<ManifestFile, 'invoice_number' | 'currency' | 'total' | 'amount_due'>;
    }[];
    /** The manifest's date: the latest issue date of the batch. */
    manifestDate: string;
  };
}

/** The job of a batch whose items were all rendered (`rendered[i]` for `batch.invoices[i]`). */
export function pdfBatchZipJob(batch: PreparedBatch, rendered: { bytes: Buffer; pages: number }[]): PdfBatchZipJob {
  const names = fileNamesOf(
    batch.invoices.map(({ invoice }) => invoice.invoice_number),
    BATCH_FORMATS[batch.format].suffix,
  );
  const files = batch.invoices.map(({ invoice, totals }, index) => ({
    name: names[index]!,
    bytes: rendered[index]!.bytes,
    pages: rendered[index]!.pages,
    date: invoice.issue_date,
    invoice: {
      invoice_number: invoice.invoice_number,
      currency: totals.currency,
      total: minorToDecimal(totals.total, totals.digits),
      amount_due: minorToDecimal(totals.balanceDue, totals.digits),
    },
  }));
  const manifestDate = files
    .map(({ date }) => date)
    .sort()
    .at(-1)!;
  return { pdfBatchZip: { format: batch.format, files, manifestDate } };
}

/**
 * Writes the ZIP of a rendered batch: the same bytes as the XML batches' writer gives for the
 * same files (produceBatch.ts zipOf): PDFs stored, manifest.json deflated and last.
 */
export function writePdfBatchZip({ pdfBatchZip: job }: PdfBatchZipJob): BatchFile {
  const zip = new ZipWriter();
  const manifest: ManifestFile[] = job.files.map(({ name, bytes, pages, date, invoice }) => {
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    zip.add(name, data, { compress: false, date });
    return {
      file: name,
      ...invoice,
      pages,
      bytes: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
  });
  zip.add('manifest.json', manifestBytes({ format: job.format, count: manifest.length, files: manifest }), {
    compress: true,
    date: job.manifestDate,
  });
  return { contentType: 'application/zip', body: zip.finish(), count: manifest.length };
}
