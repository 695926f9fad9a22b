import { setTimeout as sleep } from 'node:timers/promises';
import { eInvoiceXml, type XmlSyntax } from '../einvoice/eInvoiceDocuments.js';
import { OWN_SYNTAX_FORMATS } from '../einvoice/formats/registry.js';
import { markSpecimenXml } from '../einvoice/specimenMarks.js';
import { withPrintedLegalNotes } from '../einvoice/legalNotes.js';
import { DEFAULT_PROFILE, PROFILES, type EInvoiceProfile } from '../einvoice/profiles.js';
import { AppError, type ErrorCode } from '../errors.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { toFacturXPdf } from '../render/facturX/facturXPdf.js';
import { BATCH_FORMATS } from './batchFormats.js';
import type { PreparedBatch } from './batchRequest.js';
import { fileNamesOf } from './fileNames.js';
import { manifestBytes, manifestFile, type ManifestFile } from './manifest.js';
import { pdfBatchZipJob, writePdfBatchZip, type BatchFile, type PdfBatchZipJob } from './pdfBatchZip.js';
import { ZipWriter } from './zipWriter.js';

/** The renderer as the batch uses it (render/renderer.ts): admission throws renderer_busy synchronously. */
export interface BatchRenderer {
  renderPdf(prepared: PreparedInvoice, options?: { signal?: AbortSignal }): Promise<{ pdf: Buffer; pages: number }>;
}

export interface BatchOptions {
  signal?: AbortSignal | undefined;
  /** Renders of this batch in flight at once (default 2): the rest of the renderer stays for other callers. */
  concurrency?: number;
  /** How long a later item waits for the renderer to admit it when other traffic fills it (default 30 s). */
  admissionWaitMs?: number;
  onRendered?: ((seconds: number, pages: number) => void) | undefined;
  /** Writes the rendered files' ZIP (pdfBatchZip.ts); the app runs it on the compute pool. Default: here. */
  assembleZip?: ((job: PdfBatchZipJob) => Promise<BatchFile>) | undefined;
}

export type { BatchFile } from './pdfBatchZip.js';

const DEFAULT_CONCURRENCY = 2;
const DEFAULT_ADMISSION_WAIT_MS = 30_000;

/**
 * The batch's ZIP: one file per invoice, named from its invoice number (fileNames.ts), in item
 * order, and manifest.json last. Deterministic: the same batch gives the same bytes (zipWriter.ts;
 * every entry is dated with its invoice's issue date, the manifest with the latest).
 *
 * Not async, like the single routes' work: the first render's admission throws renderer_busy
 * before this returns, so a paid batch that can't start is refused before the facilitator is asked.
 * Later renders go through the same admission, at most `concurrency` at a time; one turned away
 * because other callers fill the renderer waits and tries again. If any item fails, the others
 * are withdrawn and the error names the item (`invoices[3]`): nothing is settled.
 *
 * The rendered files are kept in item order and their ZIP is written once at the end, by
 * `assembleZip` (on the compute pool in the app: hashing and copying a batch's PDFs is CPU work
 * that would otherwise hold the event loop); an XML batch is written by xmlBatch below.
 */
export function produceBatch(
  renderer: BatchRenderer | undefined,
  batch: PreparedBatch,
  options: BatchOptions = {},
): Promise<BatchFile> {
  if (isXmlBatch(batch)) return Promise.resolve(xmlBatch(batch));
  if (!renderer) throw new AppError('not_implemented', 'PDF rendering is not available on this instance.');
  const rendered: { bytes: Buffer; pages: number }[] = [];
  const assemble = options.assembleZip ?? ((job) => Promise.resolve(writePdfBatchZip(job)));
  return renderAll(renderer, batch, batch.format as 'pdf' | 'factur-x', options, (index, bytes, pages) => {
    rendered[index] = { bytes, pages: pages! };
  }).then(() => assemble(pdfBatchZipJob(batch, rendered)));
}

/** The batch's ZIP as files are added in item order: `add` each file, then `finish` with the manifest. */
function zipOf(batch: PreparedBatch) {
  const format = BATCH_FORMATS[batch.format];
  const names = fileNamesOf(
    batch.invoices.map(({ invoice }) => invoice.invoice_number),
    format.suffix,
  );
  const zip = new ZipWriter();
  const files: ManifestFile[] = [];
  const add = (index: number, bytes: Buffer, pages: number | null) => {
    const prepared = batch.invoices[index]!;
    zip.add(names[index]!, bytes, {
      compress: format.mimeType !== 'application/pdf',
      date: prepared.invoice.issue_date,
    });
    files.push(manifestFile(names[index]!, prepared, bytes, pages));
  };
  const finish = (): BatchFile => {
    const latest = batch.invoices
      .map(({ invoice }) => invoice.issue_date)
      .sort()
      .at(-1)!;
    zip.add('manifest.json', manifestBytes({ format: batch.format, count: files.length, files }), {
      compress: true,
      date: latest,
    });
    return { contentType: 'application/zip', body: zip.finish(), count: files.length };
  };
  return { add, finish };
}

/** Whether a batch is pure CPU (XML e-invoices and their ZIP, no render): the work the compute pool takes. */
export const isXmlBatch = (batch: PreparedBatch): boolean => BATCH_FORMATS[batch.format].mimeType !== 'application/pdf';

/**
 * An XML batch's ZIP, synchronously (on a compute worker for a paid call: batchOperations.ts
 * `pooled`). `stopped` is asked before each document: once true (verify refused the payment) it
 * throws, so refused work ends within one document.
 */
export function xmlBatch(batch: PreparedBatch, stopped: () => boolean = () => false): BatchFile {
  if (!isXmlBatch(batch)) throw new Error(`a ${batch.format} batch is rendered, not written`);
  const { add, finish } = zipOf(batch);
  batch.invoices.forEach((prepared, index) => {
    if (stopped()) throw workWithdrawn(index);
    add(index, batchItemXml(batch, prepared, index), null);
  });
  return finish();
}

/**
 * One item's XML. A syntax of a format's own (FA(3), FatturaPA) was written when its item was
 * checked (batchFormats.ts); paid with test money, its writer's specimen hook marks it (from the
 * unmarked checked request). CII and UBL are written here from the invoice specimenBatch marked, CII
 * with its TestIndicator.
 */
function batchItemXml(batch: PreparedBatch, prepared: PreparedInvoice, index: number): Buffer {
  const own = batch.ownFiles?.[index];
  if (own) {
    const { writer } = OWN_SYNTAX_FORMATS.find((format) => format.id === batch.format)!;
    return Buffer.from(batch.specimen ? writer.specimen(own.checked, own.written.file) : own.written.file);
  }
  const syntax = batch.format as XmlSyntax;
  const xml = eInvoiceXml(prepared, syntax, batch.profiles[index]);
  return batch.specimen ? markSpecimenXml(xml, syntax) : xml;
}

/** Never an answer: the call's verify refused the payment, and the call answers its 402 instead. */
const workWithdrawn = (index: number) =>
  new Error(`the batch's work was withdrawn before invoices[${index}]: verify refused the payment`);

/** Renders every item with bounded concurrency, handing finished files to `add` in item order. */
function renderAll(
  renderer: BatchRenderer,
  batch: PreparedBatch,
  format: 'pdf' | 'factur-x',
  options: BatchOptions,
  add: (index: number, bytes: Buffer, pages: number | null) => void,
): Promise<void> {
  const { invoices } = batch;
  const concurrency = Math.min(invoices.length, Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY));
  const admissionWaitMs = options.admissionWaitMs ?? DEFAULT_ADMISSION_WAIT_MS;
  // Withdraws this batch's other renders when one fails, or when the caller's signal aborts.
  const stop = new AbortController();
  const finished = new Map<number, { bytes: Buffer; pages: number }>();
  let nextToAdd = 0;

  const renderAt = (index: number, firstTry: boolean): Promise<void> => {
    const prepared = invoices[index]!;
    const profile = batch.profiles[index] ?? DEFAULT_PROFILE;
    // A hybrid prints its legal notes (France's PMT/PMD/AAB) as /v1/e-invoice/factur-x.pdf does.
    const printed = format === 'factur-x' ? withPrintedLegalNotes(prepared) : prepared;
    const started = performance.now();
    const rendering = firstTry
      ? renderer.renderPdf(printed, { signal: stop.signal })
      : admitted(renderer, printed, stop.signal, admissionWaitMs);
    return rendering.then(
      ({ pdf, pages }) => {
        options.onRendered?.((performance.now() - started) / 1000, pages);
        const bytes =
          format === 'factur-x'
            ? toFacturXPdf(pdf, { xml: eInvoiceXml(prepared, 'cii', profile), ...hybridOf(profile) })
            : pdf;
        finished.set(index, { bytes, pages });
        for (let ready = finished.get(nextToAdd); ready; ready = finished.get(nextToAdd)) {
          finished.delete(nextToAdd);
          add(nextToAdd++, ready.bytes, ready.pages);
        }
      },
      (error: unknown) => {
        // Withdrawn because another item failed (or the caller gave up): not this item's failure.
        throw stop.signal.aborted ? error : itemFailed(index, prepared, error);
      },
    );
  };

  // The first render's admission is the batch's: renderer_busy is thrown here, synchronously.
  const first = renderAt(0, true);
  let nextToStart = 1;
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // A lane renders one item after another; `concurrency` lanes run side by side.
  const lane = async (start: Promise<void>): Promise<void> => {
    await start;
    while (nextToStart < invoices.length) {
      if (stop.signal.aborted) throw stop.signal.reason;
      await renderAt(nextToStart++, false);
    }
  };
  // The first failure is the batch's: it withdraws the other renders, whose aborts are not reported.
  let failure: { error: unknown } | undefined;
  const lanes = [lane(first), ...Array.from({ length: concurrency - 1 }, () => lane(Promise.resolve()))].map(
    (running) =>
      running.catch((error: unknown) => {
        if (failure) return;
        failure = { error };
        stop.abort(error);
      }),
  );
  return Promise.all(lanes)
    .then(() => {
      if (failure) throw failure.error;
    })
    .finally(() => options.signal?.removeEventListener('abort', onAbort));
}

/** The embedded file name and conformance level of a profile's hybrid (prepareBatch refused a profile without one). */
function hybridOf(profile: EInvoiceProfile) {
  const hybrid = PROFILES[profile].hybrid;
  if (!hybrid) throw new Error(`profile ${profile} has no Factur-X form`);
  return hybrid;
}

/** One render through the renderer's admission; turned away (renderer_busy), it waits and tries again. */
async function admitted(renderer: BatchRenderer, prepared: PreparedInvoice, signal: AbortSignal, waitMs: number) {
  const deadline = performance.now() + waitMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    if (signal.aborted) throw signal.reason;
    try {
      return await renderer.renderPdf(prepared, { signal });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'renderer_busy' || performance.now() + pause > deadline)
        throw error;
    }
    await sleep(pause, undefined, { signal }).catch(() => undefined);
  }
}

/** An item's failure, named: the code stays the render's own (render_failed, render_timeout, renderer_busy). */
function itemFailed(index: number, prepared: PreparedInvoice, error: unknown): AppError {
  const failure =
    error instanceof AppError
      ? error
      : new AppError('render_failed', 'The PDF could not be rendered.', { cause: error });
  const path = `invoices[${index}]`;
  const message = `${path} (invoice ${prepared.invoice.invoice_number}) could not be rendered: ${failure.message} Nothing was charged; the whole batch can be retried.`;
  return new AppError(failure.code as ErrorCode, message, {
    cause: failure,
    issues: [{ path, code: failure.code, message: failure.message }],
    timedOut: failure.timedOut,
    ...(failure.retryAfterSeconds ? { retryAfterSeconds: failure.retryAfterSeconds } : {}),
  });
}
