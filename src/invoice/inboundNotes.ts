/**
 * A note on the file, written in the page's language from the label catalogs (render/inbound/
 * inboundBanner.ts), as einvoice/inbound/fileDocuments.ts writes it: its catalog key and the values
 * its {placeholders} take.
 */
export interface InboundNote {
  key:
    | 'inbound_note_unknown_specification'
    | 'inbound_note_signed'
    | 'inbound_note_documents_printed'
    | 'inbound_note_document_of'
    | 'inbound_note_document_totals';
  values: Record<string, string>;
}

/** A note's text from a catalog entry: each {name} replaced by its value, once, left to right. */
export const noteText = (template: string, note: InboundNote): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => note.values[name] ?? whole);
