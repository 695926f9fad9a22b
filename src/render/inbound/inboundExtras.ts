import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { LabelKey } from '../../invoice/labelKeys.js';
import type { TextView } from '../invoiceView.js';
import { textOf, type InboundText } from './inboundText.js';

/**
 * The notes FatturaPA's reader writes for what it adds to the amounts (formats/fatturapa/reader.ts
 * italianAmounts), by their subject: printed under the page's own word, the Italian legal text beside.
 */
const ITALIAN_AMOUNTS: Record<string, LabelKey> = {
  DatiRitenuta: 'inbound_withholding',
  DatiBollo: 'inbound_stamp_duty',
  DatiCassaPrevidenziale: 'inbound_pension_fund',
  ImportoPagamento: 'inbound_net_to_pay',
};

/** A withholding (ritenuta) is what FatturaPA's reader states as already settled (BT-113). */
export const prepaidIsWithholding = (doc: InboundInvoice) =>
  doc.syntax === 'fatturapa' && doc.notes.some((note) => note.subject === 'DatiRitenuta');

/** The document's notes (BG-1, with their subject code) and payment terms (BT-20). */
export function inboundNotes(
  doc: InboundInvoice,
  fmt: InboundText,
): { notes: TextView | null; paymentInstructions: TextView | null } {
  const noteText = (note: InboundInvoice['notes'][number]) => {
    const label = doc.syntax === 'fatturapa' && note.subject ? ITALIAN_AMOUNTS[note.subject] : undefined;
    if (label) return `${fmt.labels[label]} — ${note.text}`;
    if (doc.syntax === 'fatturapa' && note.subject === 'FatturaElettronicaBody')
      return fmt.labels.inbound_document_number.replace('{number}', /\d+$/.exec(note.text)?.[0] ?? note.text);
    return note.subject ? `[${note.subject}] ${note.text}` : note.text;
  };
  return {
    notes: doc.notes.length > 0 ? textOf(doc.notes.map(noteText).join('\n\n'), fmt) : null,
    paymentInstructions: doc.paymentTerms ? textOf(doc.paymentTerms, fmt) : null,
  };
}

/** Attachments (BG-24), listed and never opened. */
export function inboundAttachments(
  doc: InboundInvoice,
  fmt: InboundText,
): { id: string; text: string; lang: string }[] {
  return doc.attachments.map((attachment) => {
    const text = [
      attachment.description,
      attachment.filename,
      attachment.mimeCode,
      attachment.bytes !== undefined ? `${attachment.bytes} B` : undefined,
      attachment.uri,
    ]
      .filter(Boolean)
      .join(' · ');
    return { id: attachment.id, text, lang: fmt.userLang(text) };
  });
}
