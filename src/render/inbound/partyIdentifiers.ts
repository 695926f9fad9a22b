import type { InParty } from '../../invoice/inboundInvoice.js';
import type { LabelCatalog } from '../../invoice/labelKeys.js';
import type { TaxRegistrationView } from '../taxInvoiceMarks.js';

/**
 * A received party's identifiers as a reader knows them: by the name their country gives the
 * scheme (ISO/IEC 6523 ICD codes and Peppol EAS codes: UEN, ABN, GLN, SIRET, OIB, 法人番号, …),
 * the electronic address as "Peppol ID scheme:value", and what has no named scheme under the
 * page's word for an identifier or a registration number. Never a BT number or a bare code.
 */
const SCHEME_NAMES: Record<string, string> = {
  '0002': 'SIREN',
  '0007': 'Org.nr',
  '0009': 'SIRET',
  '0037': 'Y-tunnus',
  '0060': 'DUNS',
  '0088': 'GLN',
  '0096': 'P-nummer',
  '0106': 'KvK',
  '0135': 'SIA',
  '0151': 'ABN',
  '0160': 'GTIN',
  '0183': 'UID',
  '0184': 'CVR',
  '0188': '法人番号',
  '0190': 'OIN',
  '0192': 'Org.nr.',
  '0195': 'UEN',
  '0196': 'Kennitala',
  '0198': 'SE-nummer',
  '0199': 'LEI',
  '0200': 'Įmonės kodas',
  '0201': 'Codice IPA',
  '0204': 'Leitweg-ID',
  '0208': 'KBO/BCE',
  '0209': 'GS1',
  '0210': 'Codice fiscale',
  '0211': 'Partita IVA',
  '0212': 'Y-tunnus',
  '0216': 'OVT',
  '0221': '登録番号',
  '0230': 'TIN',
  '0235': 'TRN',
  '9906': 'Partita IVA',
  '9907': 'Codice fiscale',
  '9925': 'BTW',
  '9930': 'USt-IdNr.',
  '9934': 'OIB',
  '9945': 'NIP',
  '9957': 'TVA',
};

/** The legal registration a PINT country's BT-30 is when it names no scheme. */
const LEGAL_REGISTRATION_BY_COUNTRY: Record<string, string> = { SG: 'UEN', AU: 'ABN', NZ: 'NZBN', MY: 'BRN' };

/** The VAT number as its own country prints it: the name of the number, without the country prefix. */
const NATIONAL_VAT: Record<string, { label: string; prefix: string }> = {
  PL: { label: 'NIP', prefix: 'PL' },
  IT: { label: 'Partita IVA', prefix: 'IT' },
  HR: { label: 'OIB', prefix: 'HR' },
};

/** "scheme: id" (the reader's form, src/einvoice/inbound/readSyntax.ts schemed) or a bare id. */
function split(text: string): { scheme: string | undefined; id: string } {
  const match = /^([^:\s]{1,16}):\s*(.*)$/s.exec(text);
  return match ? { scheme: match[1], id: match[2]! } : { scheme: undefined, id: text };
}

function named(text: string, fallback: string): string {
  const { scheme, id } = split(text);
  if (scheme === undefined) return `${fallback} ${id}`;
  const name = SCHEME_NAMES[scheme];
  return name ? `${name} ${id}` : `${fallback} ${scheme}:${id}`;
}

/** One identifier ("scheme: id" or a bare id) under its scheme's name, else the page's word for an identifier. */
export const identifierText = (text: string, labels: LabelCatalog) => named(text, labels.inbound_identifier);

/** The lines a party block prints under its address: identifiers, registration, electronic address. */
export function identifierLines(party: InParty, labels: LabelCatalog): string[] {
  const country = party.address?.country;
  const legal =
    party.legalId === undefined
      ? undefined
      : split(party.legalId).scheme === undefined && country && LEGAL_REGISTRATION_BY_COUNTRY[country]
        ? `${LEGAL_REGISTRATION_BY_COUNTRY[country]} ${party.legalId}`
        : named(party.legalId, labels.inbound_legal_registration);
  const endpoint = party.endpoint === undefined ? undefined : split(party.endpoint);
  return [
    ...party.ids.map((id) => identifierText(id, labels)),
    ...(legal ? [legal] : []),
    ...(endpoint ? [`Peppol ID ${endpoint.scheme === undefined ? '' : `${endpoint.scheme}:`}${endpoint.id}`] : []),
  ];
}

/**
 * A party's VAT number where its own country names it otherwise (a Polish NIP, an Italian Partita
 * IVA, a Croatian OIB): that name and the number without the country prefix. Undefined for any
 * other party, whose VAT number keeps its prefix under the page's "VAT ID".
 */
export function nationalVatNumber(party: InParty): TaxRegistrationView | undefined {
  const vat = party.vatId?.replace(/\s+/g, '');
  const country = party.address?.country ?? vat?.slice(0, 2);
  const national = country === undefined ? undefined : NATIONAL_VAT[country];
  if (!vat || !national) return undefined;
  if (vat.startsWith(national.prefix)) return { label: national.label, lang: 'en', value: vat.slice(2) };
  return /^\d+$/.test(vat) ? { label: national.label, lang: 'en', value: vat } : undefined;
}
