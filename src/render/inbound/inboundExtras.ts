import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { TextView } from '../invoiceView.js';
import { textOf, type InboundText } from './inboundText.js';

/** The document's notes (BG-1, with their subject code) and payment terms (BT-20). */
export function inboundNotes(
  doc: InboundInvoice,
  fmt: InboundText,
): { notes: TextView | null; paymentInstructions: TextView | null } {
  return {
    notes:
      doc.notes.length > 0
        ? textOf(
            doc.notes.map((note) => (note.subject ? `[${note.subject}] ${note.text}` : note.text)).join('\n\n'),
            fmt,
          )
        : null,
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

/** Every other value the document states, with its BT and path, so nothing it says is hidden. */
export function inboundOtherValues(
  doc: InboundInvoice,
  fmt: InboundText,
): { bt: string; path: string; value: string; lang: string }[] {
  return doc.otherValues.map((value) => ({
    bt: value.bt ?? '',
    path: value.path,
    value: value.value,
    lang: fmt.userLang(value.value),
  }));
}
