import { BATCH_FORMAT_NAMES } from '../batch/batchFormats.js';
import { BatchRequestSchema, MAX_BATCH_ITEMS, prepareBatch, type PreparedBatch } from '../batch/batchRequest.js';
import { isXmlBatch, produceBatch, xmlBatch, type BatchFile, type BatchOptions } from '../batch/produceBatch.js';
import { EXAMPLE_INVOICE } from '../invoice/example.js';
import { timesUsd } from '../payment/price.js';
import type { Operation, PdfRenderer } from './operation.js';
import { specimenBatch } from './specimenBatch.js';
import { storedLookBatchResolver, type LookStores } from './lookResolvers.js';

const BATCH_EXAMPLE = {
  format: 'pdf',
  invoices: [EXAMPLE_INVOICE, { ...EXAMPLE_INVOICE, invoice_number: 'INV-2026-0043' }],
};

/**
 * POST /v1/invoices.zip: many invoices, one payment. A thin row: the work is src/batch/.
 * Its configured price (PRICES v1_invoices_zip) is per invoice; the 402 asks for it once per item.
 */
const zipAnswer = ({ contentType, body, count }: BatchFile) => ({
  contentType,
  headers: { 'Content-Disposition': 'attachment; filename="invoices.zip"', 'X-Invoice-Count': String(count) },
  body,
});

export function batchOperations(
  renderer: PdfRenderer | undefined,
  onRendered?: (seconds: number, pages: number) => void,
  stores: LookStores = {},
  assembleZip?: BatchOptions['assembleZip'],
): Operation[] {
  const batch: Operation<PreparedBatch> = {
    method: 'POST',
    path: '/v1/invoices.zip',
    operationId: 'v1_invoices_zip',
    summary: `Render up to ${MAX_BATCH_ITEMS} invoices in one ZIP for one payment (paid per invoice, x402)`,
    description:
      `Takes { format, invoices: [1–${MAX_BATCH_ITEMS} invoices] } with format one of ${BATCH_FORMAT_NAMES.join(', ')} (default pdf) and answers a ZIP with one file per invoice, named invoice-<invoice number> (characters other than letters, digits, ".", "-", "_" become "_"; names that still collide get -2, -3, …), and manifest.json listing each file's name, invoice number, currency, total, amount due, pages, size and SHA-256. ` +
      'Every invoice is checked as its single route checks it (pdf: /v1/invoice.pdf, the others: EN 16931) before any payment: a batch with an invalid item, or two items with the same invoice number, is a 400 listing every issue under invoices[i], never charged. ' +
      'One x402 payment whose amount is the per-invoice price times the number of invoices (the 402 states it). The ZIP is deterministic (the same request gives the same bytes). If any invoice fails to render, nothing is settled and the error names the item.',
    tag: 'Invoices',
    request: {
      schema: BatchRequestSchema,
      example: BATCH_EXAMPLE,
      parse: prepareBatch,
      resolve: storedLookBatchResolver(stores),
    },
    response: { contentType: 'application/zip', description: 'The ZIP: one file per invoice and manifest.json.' },
    priceOf: (input, configuredUsd) => timesUsd(configuredUsd, input?.invoices.length ?? 1),
    // XML batches are pure CPU: paid, they are written on the compute pool, not on the event loop
    // while the facilitator verifies, and a refused payment stops them within one document.
    pooled: {
      wanted: isXmlBatch,
      run: (input, stopped, marks) =>
        zipAnswer(xmlBatch(marks?.specimen ? specimenBatch(input, undefined)[0] : input, stopped)),
    },
    // Not async: the first render's admission must throw before this returns (operation.ts `handle`).
    handle(input, { signal, specimen = false }) {
      const [items, printer] = specimen ? specimenBatch(input, renderer) : [input, renderer];
      return produceBatch(printer, items, { signal, onRendered, assembleZip }).then(zipAnswer);
    },
  };
  return [batch];
}
