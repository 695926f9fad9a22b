import { createHash } from 'node:crypto';
import { minorToDecimal } from '../invoice/money.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { BatchFormat } from './batchFormats.js';

/** One file of the batch as manifest.json lists it. */
export interface ManifestFile {
  /** The file's name inside the ZIP. */
  file: string;
  invoice_number: string;
  currency: string;
  /** Exact decimal text, as /v1/invoice/validate answers it (`total.decimal`). */
  total: string;
  amount_due: string;
  /** Pages of the PDF; null for XML. */
  pages: number | null;
  bytes: number;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

export interface Manifest {
  format: BatchFormat;
  count: number;
  files: ManifestFile[];
}

export function manifestFile(
  file: string,
  prepared: PreparedInvoice,
  bytes: Buffer,
  pages: number | null,
): ManifestFile {
  const { totals, invoice } = prepared;
  return {
    file,
    invoice_number: invoice.invoice_number,
    currency: totals.currency,
    total: minorToDecimal(totals.total, totals.digits),
    amount_due: minorToDecimal(totals.balanceDue, totals.digits),
    pages,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** manifest.json's bytes: fixed key order and indentation, so the same batch gives the same bytes. */
export const manifestBytes = (manifest: Manifest): Buffer =>
  Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
