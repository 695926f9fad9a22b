/**
 * The root element of an embedded file that is XML but no e-invoice the service reads, named in
 * pdf_no_einvoice's message so that a receiver learns what the PDF does carry (a ZUGFeRD release
 * candidate of 2014, an Order-X order) rather than only what it lacks. Read from the file's first
 * characters by pattern, never parsed: the file may be anything.
 */
const HEAD_CHARS = 4096;
const PROLOG = /^(?:\uFEFF|\xEF\xBB\xBF)?\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*/;
const ROOT_TAG = /^<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)([^>]*)>/;

/** "Invoice (urn:…:CBFBUY:5)", "SCRDMCCBDACIOMessageStructure (urn:…)", or undefined when the file is not XML. */
export function embeddedXmlRoot(file: Uint8Array): string | undefined {
  const head = Buffer.from(file.subarray(0, HEAD_CHARS)).toString('latin1');
  const match = ROOT_TAG.exec(head.slice(PROLOG.exec(head)?.[0].length ?? 0));
  if (!match) return undefined;
  const [, prefix, name, attributes = ''] = match;
  const declaration = new RegExp(`\\sxmlns${prefix ? `:${prefix}` : ''}\\s*=\\s*["']([^"']{1,200})["']`).exec(
    attributes,
  );
  return declaration ? `${name} (${declaration[1]})` : name;
}
