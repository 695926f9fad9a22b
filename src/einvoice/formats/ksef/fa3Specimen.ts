import { SPECIMEN_NOTE } from '../../../invoice/specimen.js';
import { escapeText } from '../../xml.js';

/**
 * An FA(3) paid with test money is a specimen. FA(3) has no test flag, so the specimen note
 * (src/invoice/specimen.ts) is its footer's first text: Stopka/Informacje/StopkaFaktury, which the
 * ministry's visualiser prints on the invoice (DodatkowyOpis, the other choice, is a key-value pair
 * among the invoice data). The written file is marked, not rewritten: an Informacje goes first
 * into its Stopka (the schema allows three; writeFa3.ts writes at most one), or a Stopka is added
 * as Faktura's last child (after Fa, before nothing: Zalacznik is never written).
 */
const NOTE = `<Informacje><StopkaFaktury>${escapeText(SPECIMEN_NOTE)}</StopkaFaktury></Informacje>`;

export function specimenFa3(xml: Uint8Array): Buffer {
  const text = Buffer.from(xml).toString('utf8');
  const footer = text.indexOf('<Stopka>');
  const marked =
    footer !== -1
      ? text.slice(0, footer + '<Stopka>'.length) + NOTE + text.slice(footer + '<Stopka>'.length)
      : text.replace(/<\/Faktura>\s*$/, `<Stopka>${NOTE}</Stopka></Faktura>\n`);
  // A writer whose output takes no mark must not hand out an unmarked specimen.
  if (!marked.includes(NOTE)) throw new Error('the FA(3) file has no place for the specimen note');
  return Buffer.from(marked, 'utf8');
}
