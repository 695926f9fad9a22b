import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Invoice } from '../invoice/schema.js';

/** BG-1: BT-22 with its subject code BT-21 (France's PMT, PMD, AAB). */
export interface ENote {
  content: string;
  subjectCode: string | undefined;
}

/**
 * France's mandatory notes (Code de commerce L441-9, L441-10, D441-5; BR-FR-05 asks for them with
 * the subject codes PMT, PMD, AAB). Written only when the request has `legal_notes`: a note it
 * gives is kept as sent, a missing one gets the statutory wording, or the wording derived from the
 * late-fee rate (as POST /v1/late-fee uses it) or early-payment discount (D and X of "D/X Net N"
 * terms, as POST /v1/payment-terms reads them) it names.
 */
export const STATUTORY_NOTES = {
  PMT: 'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 € (articles L441-10 et D441-5 du Code de commerce).',
  PMD: "Pénalités de retard : trois fois le taux d'intérêt légal, exigibles dès le jour suivant la date d'échéance (article L441-10 du Code de commerce).",
  AAB: "Pas d'escompte pour paiement anticipé.",
} as const;

const frenchNumber = (value: number) => String(value).replace('.', ',');

export function legalNotesOf(notes: Invoice['legal_notes']): ENote[] {
  if (!notes) return [];
  const penalties =
    notes.late_payment_penalties ??
    (notes.late_fee_annual_percent !== undefined
      ? `Pénalités de retard : ${frenchNumber(notes.late_fee_annual_percent)} % par an, exigibles dès le jour suivant la date d'échéance (article L441-10 du Code de commerce).`
      : STATUTORY_NOTES.PMD);
  return [
    { subjectCode: 'PMT', content: notes.recovery_fee ?? STATUTORY_NOTES.PMT },
    { subjectCode: 'PMD', content: penalties },
    {
      subjectCode: 'AAB',
      content: notes.early_payment_discount ?? earlyPaymentNote(notes.discount_percent, notes.discount_days),
    },
  ];
}

function earlyPaymentNote(percent: number | undefined, days: number | undefined): string {
  if (percent === undefined || days === undefined) return STATUTORY_NOTES.AAB;
  return `Escompte de ${frenchNumber(percent)} % pour paiement sous ${days} jours.`;
}

/**
 * The invoice as the hybrid PDF prints it: the legal notes, which the XML carries as notes, also
 * printed with the invoice's notes, so the human-readable copy states them too. Unchanged without
 * legal_notes.
 */
export function withPrintedLegalNotes(prepared: PreparedInvoice): PreparedInvoice {
  const legal = legalNotesOf(prepared.invoice.legal_notes);
  if (legal.length === 0) return prepared;
  const notes = [prepared.invoice.notes, ...legal.map((note) => note.content)]
    .filter((note) => note !== undefined && note.trim() !== '')
    .join('\n');
  return { ...prepared, invoice: { ...prepared.invoice, notes } };
}
