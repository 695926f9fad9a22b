import type { TotalsComparison } from './inboundTotals.js';
import { documentTotals } from './nationalProfile.js';
import type { InboundInvoice } from './model.js';
import type { InboundSource } from './readInbound.js';
import { noteText, type InboundNote } from '../../invoice/inboundNotes.js';

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

/** inspect's notes are English (an API answer); the page writes the same notes from its catalog. */
const ENGLISH: Record<InboundNote['key'], string> = {
  inbound_note_unknown_specification: 'BT-24 {id}: read as plain EN 16931.',
  inbound_note_signed: 'Signed (CAdES .p7m) by {signers}; the signature was not verified.',
  inbound_note_documents_printed:
    'The file holds {count} documents (FatturaElettronicaBody), printed each from a new page.',
  inbound_note_document_of:
    'The file holds {count} documents (FatturaElettronicaBody); this is document {number} (the document argument picks another).',
  inbound_note_document_totals: 'Document {number} ({invoice}) states totals its lines do not give: {fields}.',
};

export const englishNote = (note: InboundNote): string => noteText(ENGLISH[note.key], note);

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
): InboundNote[] {
  const others = (documents ?? []).filter((document) => !document.read && document.totals.differences.length > 0);
  const count = String(origin.documents ?? 0);
  return [
    ...(origin.signers
      ? [{ key: 'inbound_note_signed' as const, values: { signers: origin.signers.join('; ') } }]
      : []),
    ...(origin.documents
      ? [
          printedWhole
            ? { key: 'inbound_note_documents_printed' as const, values: { count } }
            : { key: 'inbound_note_document_of' as const, values: { count, number: String(origin.document ?? 1) } },
        ]
      : []),
    ...others.map((document) => ({
      key: 'inbound_note_document_totals' as const,
      values: {
        number: String(document.document),
        invoice: document.invoice_number,
        fields: document.totals.differences.map((difference) => difference.field).join(', '),
      },
    })),
  ];
}
