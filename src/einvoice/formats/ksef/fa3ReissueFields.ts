import type { Reader } from '../../inbound/reader.js';
import type { XNode } from '../../../xml/xmlTree.js';

/**
 * The ksef request object of a received FA(3) (readFa3.ts), for inspect's re-issue: what FA(3) states that the
 * invoice JSON has no field for, in the fields of ksefFields.ts.
 */
export function fa3ReissueFields(r: Reader, fa: XNode | undefined, kind: string): Record<string, unknown> {
  const notes = r.node(fa, 'Adnotacje');
  const flag = (name: string) => (r.text(notes, name) === '1' ? true : undefined);
  const bases = { P_19A: 'polish_law', P_19B: 'eu_directive', P_19C: 'other' } as const;
  const basis = (Object.keys(bases) as (keyof typeof bases)[]).find((name) => r.text(notes, 'Zwolnienie', name));
  const rate =
    r
      .all(fa, 'FaWiersz')
      .map((line) => r.text(line, 'KursWaluty'))
      .find(Boolean) ?? r.text(fa, 'KursWalutyZ');
  const paidOn =
    r.text(fa, 'Platnosc', 'DataZaplaty') ??
    r
      .all(r.node(fa, 'Platnosc'), 'ZaplataCzesciowa')
      .map((part) => r.text(part, 'DataZaplatyCzesciowej'))
      .find(Boolean);
  const annotations = Object.fromEntries(
    Object.entries({
      cash_accounting: flag('P_16'),
      self_billing: flag('P_17'),
      reverse_charge: flag('P_18'),
      split_payment: flag('P_18A'),
      simplified_triangular: flag('P_23'),
    }).filter(([, value]) => value !== undefined),
  );
  return Object.fromEntries(
    Object.entries({
      kind: ['VAT', 'KOR', 'ZAL'].includes(kind) ? kind : undefined,
      place_of_issue: r.text(fa, 'P_1M'),
      // The request object knows corrections of kind KOR only; KOR_ZAL / KOR_ROZ keep theirs as other values.
      corrected_ksef_number: kind === 'KOR' ? r.text(fa, 'DaneFaKorygowanej', 'NrKSeFFaKorygowanej') : undefined,
      correction_reason: kind === 'KOR' ? r.text(fa, 'PrzyczynaKorekty') : undefined,
      paid_on: paidOn,
      advance:
        kind === 'ZAL' && r.text(fa, 'P_15') && (r.text(fa, 'P_6') ?? paidOn)
          ? { amount: Number(r.text(fa, 'P_15')), received_on: r.text(fa, 'P_6') ?? paidOn }
          : undefined,
      exchange_rate: rate === undefined ? undefined : Number(rate),
      annotations: Object.keys(annotations).length > 0 ? annotations : undefined,
      exemption: basis ? { basis: bases[basis], text: r.text(notes, 'Zwolnienie', basis) } : undefined,
    }).filter(([, value]) => value !== undefined),
  );
}
