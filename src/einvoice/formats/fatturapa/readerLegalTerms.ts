import type { LegalTerm } from '../../../invoice/inboundInvoice.js';
import type { Reader } from '../../inbound/reader.js';
import type { XNode } from '../../../xml/xmlTree.js';
import { ESIGIBILITA_NAMES, NATURA_NAMES, REGIME_NAMES } from './legalNames.js';

/**
 * The FatturaPA codes a reader of the courtesy copy looks for by their Italian legal names: the
 * seller's RegimeFiscale, each Natura of a non-taxed amount (with its RiferimentoNormativo) and each
 * EsigibilitaIVA. Each is printed with the page's own word for it and the Italian name beside
 * (render/inbound/inboundReferences.ts), so an English or German reader sees both.
 */
export function fatturaPALegalTerms(r: Reader, seller: XNode | undefined, goods: XNode | undefined): LegalTerm[] {
  const terms: Omit<LegalTerm, 'lang'>[] = [];
  const regime = r.text(seller, 'DatiAnagrafici', 'RegimeFiscale');
  if (regime !== undefined)
    terms.push({
      label: 'inbound_tax_regime',
      legalName: named('Regime fiscale', regime, REGIME_NAMES),
      element: 'RegimeFiscale',
    });
  const summaries = r.all(goods, 'DatiRiepilogo');
  const natures = new Map<string, string | undefined>();
  for (const summary of summaries) {
    const natura = r.text(summary, 'Natura');
    if (natura !== undefined && !natures.has(natura)) natures.set(natura, r.text(summary, 'RiferimentoNormativo'));
  }
  for (const [natura, reference] of natures)
    terms.push({
      label: 'inbound_vat_nature',
      legalName: [named('Natura', natura, NATURA_NAMES), reference].filter(Boolean).join(' · '),
      element: 'Natura',
    });
  const chargeabilities = new Set(summaries.map((summary) => r.text(summary, 'EsigibilitaIVA')));
  for (const code of chargeabilities)
    if (code !== undefined)
      terms.push({
        label: code === 'S' ? 'inbound_split_payment' : 'inbound_vat_chargeability',
        legalName: named('Esigibilità IVA', code, ESIGIBILITA_NAMES),
        element: 'EsigibilitaIVA',
      });
  return terms.map((term) => ({ ...term, lang: 'it' }));
}

const named = (element: string, code: string, names: Record<string, string>) =>
  names[code] === undefined ? `${element} ${code}` : `${element} ${code} – ${names[code]}`;
