import Handlebars from 'handlebars';
import { noteText, type InboundNote } from '../../invoice/inboundNotes.js';
import type { InboundInvoice, VerificationCode } from '../../invoice/inboundInvoice.js';
import type { LabelCatalog } from '../../invoice/labelKeys.js';
import type { VerificationCodeView } from '../invoiceView.js';
import { paymentQrSvg } from '../paymentQrSvg.js';
import type { InboundText } from './inboundText.js';
import { totalFieldWords } from './totalWords.js';

/** "Visualisation of an electronic invoice…" and the syntax · envelope · BT-24 · profile line. */
export function inboundBanner(
  doc: InboundInvoice,
  notes: InboundNote[],
  { labels, locale }: InboundText,
): { banner: string; specification: string; notices: { lang: string; text: string }[] } {
  return {
    banner: labels.inbound_visualisation,
    specification: [
      doc.syntaxLabel,
      doc.envelope === 'sbdh' ? 'SBDH' : null,
      doc.customization || null,
      doc.profile ?? null,
    ]
      .filter(Boolean)
      .join(' · '),
    notices: notes.map((note) => ({
      lang: locale.language,
      text: `${labels.inbound_unknown_specification} ${noteText(labels[note.key], inPageWords(note, labels))}`,
    })),
  };
}

/** A note's values in the page's words: the totals a document gets wrong by their names, not their JSON keys. */
function inPageWords(note: InboundNote, labels: LabelCatalog): InboundNote {
  if (note.key !== 'inbound_note_document_totals' || note.values.fields === undefined) return note;
  const fields = note.values.fields.split(', ').map((field) => totalFieldWords(field, labels));
  return { ...note, values: { ...note.values, fields: fields.join(', ') } };
}

/**
 * A format's verification code (src/einvoice/formats/format.ts VerificationCodeHook, e.g. FA(3)'s KOD I):
 * the QR code of its link, its caption and its name. All three are printed as escaped text; only the
 * QR SVG, geometry built here, is markup.
 */
export function verificationCodeView(code: VerificationCode | undefined): VerificationCodeView | null {
  if (!code) return null;
  return {
    svg: new Handlebars.SafeString(paymentQrSvg(code.link, { size: '32mm' }).svg),
    link: code.link,
    caption: code.caption,
    name: code.name,
  };
}
