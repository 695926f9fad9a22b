import { OWN_SYNTAX_READERS } from '../formats/registry.js';
import { PROFILES } from '../profiles.js';
import type { InboundInvoice } from './model.js';
import { nationalFormatOf } from './nationalProfile.js';

/**
 * The specification identifiers (BT-24) this service knows. Any other is read as plain EN 16931
 * (every CIUS and extension of it shares the EN 16931 core the reader maps) and the answer and
 * the PDF say so: refusing would leave the receiver with nothing readable, and the reader keeps
 * every element it does not map as an "other value".
 */
const CIUS_OR_EXTENSION = 'EN 16931 (a CIUS or extension)';

const KNOWN: readonly (readonly [RegExp, string])[] = [
  [/^urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_\d/, 'XRechnung'],
  [/^urn:cen\.eu:en16931:2017#conformant#urn:xeinkauf\.de:kosit:extension:xrechnung_\d/, 'XRechnung extension'],
  [/^urn:cen\.eu:en16931:2017#compliant#urn:fdc:peppol\.eu:2017:poacc:billing:3\.0/, 'Peppol BIS Billing 3.0'],
  [
    /^urn:cen\.eu:en16931:2017#(compliant|conformant)#urn:(factur-x\.eu:1p0|zugferd\.de:2p\d):basic/,
    'Factur-X / ZUGFeRD BASIC',
  ],
  [
    /^urn:cen\.eu:en16931:2017#conformant#urn:(factur-x\.eu:1p0|zugferd\.de:2p\d):extended/,
    'Factur-X / ZUGFeRD EXTENDED',
  ],
  [/^urn:(factur-x\.eu:1p0|zugferd\.de:2p\d):minimum/, 'Factur-X / ZUGFeRD MINIMUM'],
  [/^urn:(factur-x\.eu:1p0|zugferd\.de:2p\d):basicwl/, 'Factur-X / ZUGFeRD BASIC WL'],
  [/^urn:ferd:CrossIndustryDocument:invoice:1p0:basic$/, 'ZUGFeRD 1.0 BASIC'],
  [/^urn:ferd:CrossIndustryDocument:invoice:1p0:comfort$/, 'ZUGFeRD 1.0 COMFORT'],
  [/^urn:ferd:CrossIndustryDocument:invoice:1p0:extended$/, 'ZUGFeRD 1.0 EXTENDED'],
  [/^urn:cen\.eu:en16931:2017$/, 'EN 16931'],
  [/^urn:cen\.eu:en16931:2017#/, CIUS_OR_EXTENSION],
  // The identifiers of the syntaxes the format modules bring (FA(3)'s "FA (3) 1-0E", "FatturaPA 1.2 FPR12", …).
  ...OWN_SYNTAX_READERS.flatMap((reader) => reader.customizations ?? []),
];

function customizationName(id: string): string | null {
  return KNOWN.find(([pattern]) => pattern.test(id))?.[1] ?? null;
}

/**
 * The name inspect and the PDF give a document's specification: a known identifier's, else the
 * title of the registry's profile that recognises the document (Peppol PINT, HR-CIUS), with the kind
 * its format module reads from BT-24 (formats/pint: Japan's non-tax-registered invoice is PINT JP's,
 * not a qualified invoice). Null only for an identifier nothing here knows: it is then read as plain EN 16931.
 */
export function specificationName(document: InboundInvoice): string | null {
  const known = customizationName(document.customization);
  if (known !== null && known !== CIUS_OR_EXTENSION) return known;
  const national = nationalFormatOf(document);
  if (national === undefined) return known;
  const kind = national.reading?.kind?.(document);
  return kind ? `${PROFILES[national.id].title}: ${kind}` : PROFILES[national.id].title;
}
