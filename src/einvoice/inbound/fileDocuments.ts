import type { TotalsComparison } from './inboundTotals.js';
import { documentTotals } from './nationalProfile.js';
import type { InboundInvoice } from './model.js';
import type { InboundSource } from './readInbound.js';

/** One document of a file that holds several (FatturaPA's bodies), as inspect lists it. */
export interface FileDocument {
  /** Its place in the file, from 1: the `document` argument that reads (or prints) it. */
  document: number;
  /** Whether this answer reads it. */
  read: boolean;
  type_code: string;
  profile: string | null;
  invoice_number: string;
  issue_date: string;
  currency: string;
  /** Its own totals beside those recomputed from its own lines, with every difference. */
  totals: TotalsComparison;
}

/** Every document of a multi-document file, each judged by its own totals; none for a file of one. */
export function fileDocuments(origin: InboundSource): FileDocument[] | undefined {
  if (!origin.all || origin.all.length < 2) return undefined;
  return origin.all.map((invoice: InboundInvoice, at) => ({
    document: at + 1,
    read: at + 1 === (origin.document ?? 1),
    type_code: invoice.typeCode,
    profile: invoice.profile ?? null,
    invoice_number: invoice.number,
    issue_date: invoice.issueDate,
    currency: invoice.currency,
    totals: documentTotals(invoice),
  }));
}

/**
 * What a signed or multi-document file holds beyond the document read. `printedWhole`: render.pdf
 * prints every document of the file (no document argument), so none is singled out. `documents`:
 * fileDocuments(origin) when the caller has it already (each one's totals are compared once).
 */
export function envelopeNotes(
  origin: InboundSource,
  {
    printedWhole = false,
    documents = fileDocuments(origin),
  }: { printedWhole?: boolean; documents?: FileDocument[] } = {},
): string[] {
  const others = (documents ?? []).filter((document) => !document.read && document.totals.differences.length > 0);
  return [
    ...(origin.signers ? [`Signed (CAdES .p7m) by ${origin.signers.join('; ')}; the signature was not verified.`] : []),
    ...(origin.documents
      ? [
          printedWhole
            ? `The file holds ${origin.documents} documents (FatturaElettronicaBody), printed each from a new page.`
            : `The file holds ${origin.documents} documents (FatturaElettronicaBody); this is document ${origin.document ?? 1} (the document argument picks another).`,
        ]
      : []),
    ...others.map(
      (document) =>
        `Document ${document.document} (${document.invoice_number}) states totals its lines do not give: ${document.totals.differences.map((difference) => difference.field).join(', ')}.`,
    ),
  ];
}
