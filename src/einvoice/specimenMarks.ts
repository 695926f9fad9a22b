import { asSpecimen, SPECIMEN_NOTE } from '../invoice/specimen.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { eInvoiceXml, type XmlSyntax } from './eInvoiceDocuments.js';
import type { EInvoiceProfile } from './profiles.js';

const CII_CONTEXT = '<rsm:ExchangedDocumentContext>';
const CII_TEST_INDICATOR = '<ram:TestIndicator><udt:Indicator>true</udt:Indicator></ram:TestIndicator>';

/**
 * The e-invoice of a document paid with test money: the specimen note as its first invoice note
 * (BT-22, CII IncludedNote and UBL cbc:Note, src/invoice/specimen.ts) and, in CII, the syntax's
 * own test flag (ExchangedDocumentContext/TestIndicator = true, the first child the CII schema
 * allows there). UBL 2.1 has no test flag; its note says it. A writer whose output lacks either
 * mark is a bug that must not hand out an unmarked specimen, so it throws.
 */
export function specimenXml(prepared: PreparedInvoice, syntax: XmlSyntax, profile?: EInvoiceProfile): Buffer {
  return markSpecimenXml(eInvoiceXml(asSpecimen(prepared), syntax, profile), syntax);
}

/** The marks of specimenXml on a file written from an invoice asSpecimen already marked (a batch's). */
export function markSpecimenXml(written: Buffer, syntax: XmlSyntax): Buffer {
  const xml = written.toString('utf8');
  if (!xml.includes(SPECIMEN_NOTE.slice(0, 40))) throw new Error(`the ${syntax} writer dropped the specimen note`);
  if (syntax === 'ubl') return written;
  const at = xml.indexOf(CII_CONTEXT);
  if (at === -1) throw new Error('the CII writer wrote no ExchangedDocumentContext to mark as a test document');
  const end = at + CII_CONTEXT.length;
  return Buffer.from(xml.slice(0, end) + CII_TEST_INDICATOR + xml.slice(end), 'utf8');
}
