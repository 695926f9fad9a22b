import type { InAddress, InboundInvoice, InParty } from '../../invoice/inboundInvoice.js';
import { countryName } from '../../invoice/localeFormat.js';
import type { InvoiceLocale } from '../../invoice/locales.js';
import type { PartyView } from '../partyView.js';
import { textLanguage } from '../textLanguage.js';
import type { InboundText } from './inboundText.js';
import { identifierLines, identifierText, nationalVatNumber } from './partyIdentifiers.js';

/** The party blocks beside the seller and buyer: payee (BG-10) and tax representative (BG-11). */
export function otherParties(doc: InboundInvoice, fmt: InboundText): { heading: string; party: PartyView }[] {
  const { labels } = fmt;
  return [
    ...(doc.payee ? [{ heading: labels.inbound_payee, party: inboundParty(doc.payee, fmt) }] : []),
    ...(doc.taxRepresentative
      ? [
          {
            heading: labels.inbound_tax_representative,
            party: inboundParty(doc.taxRepresentative, fmt),
          },
        ]
      : []),
  ];
}

/** The deliver-to block (BG-13), when the document names a place, an address or a location id. */
export function deliveryParty(doc: InboundInvoice, { locale, labels }: InboundText): PartyView | null {
  const delivery = doc.delivery;
  if (!delivery || !(delivery.name || delivery.address || delivery.locationId)) return null;
  const address = [
    delivery.address ? addressText(delivery.address, locale) : null,
    delivery.locationId ? identifierText(delivery.locationId, labels) : null,
  ]
    .filter(Boolean)
    .join('\n');
  return partyBlock({ name: delivery.name ?? '', address: address || null }, locale);
}

/**
 * A party of the document as the party partial prints it; identifiers join the address block,
 * each under its scheme's name (partyIdentifiers.ts), and a VAT number its country names otherwise
 * (NIP, Partita IVA, OIB) is printed under that name.
 */
export function inboundParty(party: InParty, { locale, labels }: InboundText): PartyView {
  const addressLines = party.address ? addressText(party.address, locale) : null;
  const extra = [party.tradingName, party.legalInfo, ...identifierLines(party, labels)].filter(
    (line): line is string => line !== undefined && line !== '',
  );
  const address = [addressLines, ...extra].filter(Boolean).join('\n') || null;
  const national = nationalVatNumber(party);
  const block = partyBlock(
    {
      name: party.name,
      address,
      contactName: party.contactName,
      phone: party.phone,
      email: party.email,
      vatId: party.vatId,
      taxId: party.taxRegistration,
    },
    locale,
  );
  return national ? { ...block, vatId: null, taxRegistration: national } : block;
}

interface PartyFields {
  name: string;
  address: string | null;
  contactName?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  vatId?: string | undefined;
  taxId?: string | undefined;
}

function partyBlock(fields: PartyFields, locale: InvoiceLocale): PartyView {
  const all = [fields.name, fields.address, fields.contactName, fields.phone].filter(Boolean).join(' ');
  return {
    lang: textLanguage(all, locale.tag),
    name: fields.name,
    address: fields.address,
    contactName: fields.contactName ?? null,
    email: fields.email ?? null,
    phone: fields.phone ?? null,
    vatId: fields.vatId ?? null,
    taxId: fields.taxId ?? null,
    taxRegistration: null,
    emailParts: fields.email?.split(/(?<=@)|(?=\.)/) ?? null,
  };
}

function addressText(address: InAddress, locale: InvoiceLocale): string | null {
  const cityLine = [address.postalCode, address.city].filter(Boolean).join(' ');
  const country =
    address.country && /^[A-Z]{2}$/.test(address.country) ? safeCountry(address.country, locale) : address.country;
  return [...address.lines, cityLine || undefined, address.subdivision, country].filter(Boolean).join('\n') || null;
}

function safeCountry(code: string, locale: InvoiceLocale): string {
  try {
    return countryName(code, locale);
  } catch {
    return code;
  }
}
