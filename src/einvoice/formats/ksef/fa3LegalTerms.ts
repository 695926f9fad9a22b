import type { LegalTerm } from '../../../invoice/inboundInvoice.js';
import type { Reader } from '../../inbound/reader.js';
import type { XNode } from '../../../xml/xmlTree.js';

type Term = Omit<LegalTerm, 'lang'>;

/**
 * What a received FA(3) states whose Polish legal name matters to its reader (the VAT act's words,
 * as the ministry's schema names them): its kind when it is a correction or an advance, the
 * annotations that say "yes" (Adnotacje), the exemption's legal basis and each rate code of its
 * lines. The PDF prints each in the page's language with the Polish name and the element beside it
 * (src/render/inbound/inboundReferences.ts).
 */
const KINDS: Record<string, Term> = {
  KOR: { label: 'inbound_kind_correction', legalName: 'faktura korygująca', element: 'RodzajFaktury KOR' },
  KOR_ZAL: {
    label: 'inbound_kind_correction',
    legalName: 'faktura korygująca fakturę zaliczkową',
    element: 'RodzajFaktury KOR_ZAL',
  },
  KOR_ROZ: {
    label: 'inbound_kind_correction',
    legalName: 'faktura korygująca fakturę rozliczeniową',
    element: 'RodzajFaktury KOR_ROZ',
  },
  ZAL: { label: 'inbound_kind_advance', legalName: 'faktura zaliczkowa', element: 'RodzajFaktury ZAL' },
};

const ANNOTATIONS: [string, Term][] = [
  ['P_16', { label: 'inbound_cash_accounting', legalName: 'metoda kasowa', element: 'P_16' }],
  ['P_17', { label: 'inbound_self_billing', legalName: 'samofakturowanie', element: 'P_17' }],
  ['P_18', { label: 'category_AE', legalName: 'odwrotne obciążenie', element: 'P_18' }],
  ['P_18A', { label: 'inbound_split_payment', legalName: 'mechanizm podzielonej płatności', element: 'P_18A' }],
];

/** The rate codes of P_12 with the act's names; the 23/8/5 % rates need none beyond their number. */
const RATE_CODES: Record<string, Term> = {
  '0 KR': { label: 'category_Z', legalName: 'stawka 0% – dostawa krajowa', element: 'P_12 0 KR' },
  '0 WDT': {
    label: 'category_K',
    legalName: 'stawka 0% – wewnątrzwspólnotowa dostawa towarów',
    element: 'P_12 0 WDT',
  },
  '0 EX': { label: 'category_G', legalName: 'stawka 0% – eksport towarów', element: 'P_12 0 EX' },
  zw: { label: 'category_E', legalName: 'zwolnione od podatku', element: 'P_12 zw' },
  oo: { label: 'category_AE', legalName: 'odwrotne obciążenie', element: 'P_12 oo' },
  'np I': {
    label: 'category_O',
    legalName: 'niepodlegające opodatkowaniu na terytorium kraju',
    element: 'P_12 np I',
  },
  'np II': {
    label: 'category_O',
    legalName: 'niepodlegające opodatkowaniu – usługi z art. 100 ust. 1 pkt 4 ustawy',
    element: 'P_12 np II',
  },
};

const BASES = ['P_19A', 'P_19B', 'P_19C'];

export function fa3LegalTerms(r: Reader, fa: XNode | undefined, kind: string): LegalTerm[] {
  const notes = r.node(fa, 'Adnotacje');
  const basis = BASES.find((name) => r.node(notes, 'Zwolnienie', name) !== undefined);
  const codes = new Set(r.all(fa, 'FaWiersz').map((line) => r.node(line, 'P_12')?.text));
  const terms: Term[] = [
    ...(KINDS[kind] ? [KINDS[kind]] : []),
    ...ANNOTATIONS.filter(([name]) => r.node(notes, name)?.text === '1').map(([, term]) => term),
    ...(basis
      ? [
          {
            label: 'inbound_exemption_basis' as const,
            legalName: `podstawa zwolnienia: ${r.node(notes, 'Zwolnienie', basis)?.text ?? ''}`,
            element: basis,
          },
        ]
      : []),
    ...Object.entries(RATE_CODES)
      .filter(([code]) => codes.has(code))
      .map(([, term]) => term),
  ];
  return terms.map((term) => ({ ...term, lang: 'pl' }));
}
