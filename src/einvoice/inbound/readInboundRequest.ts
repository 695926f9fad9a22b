import type { VerificationCode } from '../../invoice/inboundInvoice.js';
import { VERIFICATION_CODES } from '../formats/registry.js';
import { specificationName } from './customizations.js';
import type { InboundNote } from '../../invoice/inboundNotes.js';
import { envelopeNotes, fileDocuments } from './fileDocuments.js';
import type { InboundRequest } from './inboundRequest.js';
import type { TotalsComparison } from './inboundTotals.js';
import { documentTotals } from './nationalProfile.js';
import type { InboundInvoice } from './model.js';
import { readInbound, type InboundSource } from './readInbound.js';
import { readRecordFile, recordsNotPrintable } from './recordFiles.js';

/**
 * The inbound operations' reading of the document, done by their `parse` on the compute pool (never
 * on the event loop, operations/operationJobs.ts). Each returns plain data: it crosses back to the
 * main thread by structured clone.
 */

/**
 * What inspect answers from: an invoice (inspect.ts buildInspectAnswer), or a file of records about
 * invoices (VERI*FACTU's billing records), answered as its format's reader reports it (recordFiles.ts).
 */
export type InspectRead = { invoice: InboundInvoice; source: InboundSource } | { records: object };

export function readForInspect(request: InboundRequest): InspectRead {
  const records = readRecordFile(request);
  if (records) return { records: records.answer };
  const { invoice, source } = readInbound(request.bytes, request.format, request.document);
  return { invoice, source };
}

/** What render.pdf prints (render/inboundView.ts InboundRender): the document, its totals comparison, notes and the language. */
export function readForRender(request: InboundRequest): {
  invoice: InboundInvoice;
  totals: TotalsComparison;
  notes: InboundNote[];
  locale: string | undefined;
  verificationCode?: VerificationCode;
  /** The file's further documents (a FatturaPA's further bodies), printed each from a new page. */
  further?: { invoice: InboundInvoice; totals: TotalsComparison; notes: InboundNote[] }[];
} {
  const records = readRecordFile(request);
  if (records) throw recordsNotPrintable(records.describe);
  const { invoice, source, file } = readInbound(request.bytes, request.format, request.document);
  // A file of several documents is printed whole unless the document argument picks one.
  const documents = fileDocuments(source);
  const further = request.document === undefined ? (documents ?? []).slice(1) : [];
  const name = specificationName(invoice);
  // A format whose printed copies carry a verification code builds it over its file as received (format.ts):
  // the XML sent, a .p7m's content or a PDF's attachment, never the PDF or envelope around it.
  const received = { file, format: request.format };
  const verificationCode = VERIFICATION_CODES.map((code) =>
    code.build(invoice, received, request.codeArguments ?? {}),
  ).find((code) => code !== undefined);
  return {
    invoice,
    totals: documents?.find((document) => document.read)?.totals ?? documentTotals(invoice),
    notes: [
      ...(name === null
        ? [
            {
              key: 'inbound_note_unknown_specification' as const,
              values: { id: JSON.stringify(invoice.customization) },
            },
          ]
        : []),
      ...envelopeNotes(source, { printedWhole: further.length > 0, documents }),
    ],
    locale: request.locale,
    ...(verificationCode ? { verificationCode } : {}),
    ...(further.length > 0
      ? {
          further: further.map((document) => ({
            invoice: { ...source.all![document.document - 1]!, envelope: invoice.envelope },
            totals: document.totals,
            notes: [],
          })),
        }
      : {}),
  };
}
