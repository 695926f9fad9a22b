import type { InboundInvoice, InboundNoteMeaning } from '../../invoice/inboundInvoice.js';
import type { LabelKey } from '../../invoice/labelKeys.js';
import type { TextView } from '../invoiceView.js';
import { textOf, type InboundText } from './inboundText.js';

/** The label a note is printed under, by the meaning its format's reader gave it (inboundInvoice.ts). */
const MEANING_LABELS: Record<Exclude<InboundNoteMeaning, 'document_number'>, LabelKey> = {
  withholding: 'inbound_withholding',
  stamp_duty: 'inbound_stamp_duty',
  net_to_pay: 'inbound_net_to_pay',
};

/** A withholding is what the reader states as already settled (BT-113), e.g. FatturaPA's ritenuta. */
export const prepaidIsWithholding = (doc: InboundInvoice) => doc.notes.some((note) => note.printedAs === 'withholding');

/** The document's notes (BG-1, with their subject code) and payment terms (BT-20). */
export function inboundNotes(
  doc: InboundInvoice,
  fmt: InboundText,
): { notes: TextView | null; paymentInstructions: TextView | null } {
  const noteText = (note: InboundInvoice['notes'][number]) => {
    if (note.printedAs === 'document_number')
      return fmt.labels.inbound_document_number.replace('{number}', /\d+$/.exec(note.text)?.[0] ?? note.text);
    if (note.printedAs) return `${fmt.labels[MEANING_LABELS[note.printedAs]]} — ${note.text}`;
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
