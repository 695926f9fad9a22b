import type { PreparedInvoice } from './prepareInvoice.js';

/** What the stamp on every page of a specimen says (src/render/specimenStamp.ts). */
export const SPECIMEN_TEXT = 'SPECIMEN — paid with test USDC';

/** The note a specimen carries in its PDF and e-invoice (BT-22 in CII and UBL). */
export const SPECIMEN_NOTE = `${SPECIMEN_TEXT}. This is a test document, not an invoice: do not book, pay or file it.`;

/**
 * A document paid with test money (the trial network, src/payment/trial/trialNetwork.ts) is a
 * specimen: the note goes first among the invoice's notes, so the PDF prints it and the CII and UBL
 * carry it as an invoice note. The prepared totals are untouched: only words are added.
 */
export function asSpecimen(prepared: PreparedInvoice): PreparedInvoice {
  const notes = prepared.invoice.notes;
  return {
    ...prepared,
    invoice: { ...prepared.invoice, notes: notes ? `${SPECIMEN_NOTE}\n\n${notes}` : SPECIMEN_NOTE },
  };
}
