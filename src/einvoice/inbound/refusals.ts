import { rejected } from '../../errors.js';
import { INBOUND_LIMITS } from './limits.js';

/**
 * The refusals of an inbound e-invoice: each a 400 with a stable code (docs/e-invoices-inbound.md
 * lists them), raised before any payment or rendering.
 */
const refuse = (code: string, message: string) => rejected(code, message, [{ path: '', code, message }]);

/** `others`: the roots the format modules read besides CII and UBL (src/einvoice/formats/registry.ts). */
export const unknownRoot = (root: string, others: readonly string[]) =>
  refuse(
    'einvoice_unknown_root',
    `The XML root element ${root} is not an e-invoice: expected a UN/CEFACT CrossIndustryInvoice, a UBL 2.1 Invoice or CreditNote, ${others.map((other) => `${other}, `).join('')}or a Peppol StandardBusinessDocument around one of them.`,
  );

export const unreadableBinary = (what: string) =>
  refuse(
    'einvoice_binary_unsupported',
    `The Peppol envelope carries a binary document (BinaryContent: ${what}); only a PDF with an embedded e-invoice is read from it.`,
  );

export const tooManyLines = (count: number) =>
  refuse('einvoice_too_large', `The e-invoice has ${count} lines; at most ${INBOUND_LIMITS.lines} are read.`);

/** ZUGFeRD's release candidate of 2014 (root Invoice in CBFBUY:5), which early ZUGFeRD PDFs embed. */
const RELEASE_CANDIDATE = 'urn:un:unece:uncefact:data:standard:CBFBUY:5';

/** `roots`: the root elements of the embedded XML files that are no e-invoice the service reads (embeddedRoot.ts). */
export const noEInvoiceInPdf = (roots: string[] = []) =>
  refuse(
    'pdf_no_einvoice',
    `The PDF carries no embedded CII, UBL or ZUGFeRD 1.0 invoice (a Factur-X, ZUGFeRD or XRechnung hybrid PDF embeds it as factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml or xrechnung.xml).${
      roots.length === 0
        ? ''
        : ` It embeds XML whose root is ${roots.join(', ')}${
            roots.some((root) => root.includes(RELEASE_CANDIDATE))
              ? ': the release candidate of ZUGFeRD published before ZUGFeRD 1.0 (2014), which this service does not read'
              : ''
          }.`
    }`,
  );

/** The `document` argument names a document the file does not hold. */
export const documentNotFound = (document: number, count: number) => {
  const message = `The file holds ${count} document${count === 1 ? '' : 's'}: document ${document} does not exist (give document 1${count > 1 ? ` to ${count}` : ''}).`;
  return rejected('einvoice_document_not_found', message, [
    { path: 'document', code: 'einvoice_document_not_found', message },
  ]);
};
