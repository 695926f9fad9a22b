import type { Party } from '../../../invoice/schema.js';
import { nipOfVatId } from './nip.js';

/**
 * How a party of the invoice JSON is identified in FA(3): a Polish VAT identifier (PL + NIP) as the
 * NIP; another EU one as KodUE + NrVatUE (Greece's prefix is EL); any other as KodKraju + NrID; no
 * VAT identifier at all as BrakID. Its address: AdresL1 the street (or the free-text address's first
 * line), AdresL2 postal code and city.
 */
const EU_VAT_PREFIXES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'EL',
  'HR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'XI',
]);

export type PartyId =
  | { kind: 'nip'; nip: string }
  | { kind: 'eu'; prefix: string; number: string }
  | { kind: 'other'; country: string | undefined; number: string }
  | { kind: 'none' };

export function partyIdOf(party: Pick<Party, 'vat_id' | 'country'>): PartyId {
  const vatId = party.vat_id;
  if (vatId === undefined) return { kind: 'none' };
  const nip = nipOfVatId(vatId);
  if (nip !== undefined) return { kind: 'nip', nip };
  const prefix = vatId.slice(0, 2);
  if (EU_VAT_PREFIXES.has(prefix) && prefix !== 'PL') return { kind: 'eu', prefix, number: vatId.slice(2) };
  return { kind: 'other', country: party.country, number: vatId };
}

export interface Fa3Address {
  country: string;
  line1: string;
  line2: string | undefined;
}

/** The FA(3) address of a party, undefined when it gives none. */
export function addressOf(party: Party, fallbackCountry: string): Fa3Address | undefined {
  const freeText = party.address
    ?.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const cityLine = [party.postal_code, party.city].filter((part) => part !== undefined && part.trim() !== '').join(' ');
  const line1 = party.street?.trim() || freeText?.[0] || (cityLine !== '' ? cityLine : undefined);
  if (line1 === undefined) return undefined;
  const rest = party.street?.trim() ? cityLine : line1 === cityLine ? '' : (freeText?.slice(1).join(', ') ?? '');
  return { country: party.country ?? fallbackCountry, line1, line2: rest === '' ? undefined : rest };
}
