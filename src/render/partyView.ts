import { countryName } from '../invoice/localeFormat.js';
import type { InvoiceLocale } from '../invoice/locales.js';
import type { Party } from '../invoice/schema.js';
import type { TaxRegistrationView } from './taxInvoiceMarks.js';
import { textLanguage } from './textLanguage.js';

export interface PartyView {
  /** `lang` of the block of user text: "" (unknown) unless CJK script tells us more. */
  lang: string;
  name: string;
  /** The postal address as printed: the structured parts when given, else the free text. */
  address: string | null;
  contactName: string | null;
  email: string | null;
  /**
   * The e-mail address in the pieces between which a line may break: after the @ and before each
   * dot ("billing@" "northwind" ".example"); the template puts a <wbr> between them, so a narrow
   * column never splits a word of the address.
   */
  emailParts: string[] | null;
  phone: string | null;
  vatId: string | null;
  taxId: string | null;
  /** The tax registration number with its country's label (ABN, GST No., 登録番号): taxInvoiceMarks.ts. */
  taxRegistration: TaxRegistrationView | null;
}

export function partyView(party: Party, locale: InvoiceLocale): PartyView {
  const address = structuredAddress(party, locale) ?? nonBlank(party.address);
  const allText = [party.name, address, party.contact_name, party.phone, party.tax_id].filter(Boolean).join(' ');
  return {
    lang: textLanguage(allText, locale.tag),
    name: party.name,
    address,
    contactName: nonBlank(party.contact_name),
    email: nonBlank(party.email),
    emailParts: nonBlank(party.email)?.split(/(?<=@)|(?=\.)/) ?? null,
    phone: nonBlank(party.phone),
    vatId: nonBlank(party.vat_id),
    taxId: nonBlank(party.tax_id),
    taxRegistration: null,
  };
}

/**
 * Street, then postal code and city, then the country's name in the invoice language. (Postal
 * code before city is the order of most of Europe, Latin America and Asia; it is only a line.)
 * Undefined when the party gives none of the parts, so the free-text address prints instead.
 */
function structuredAddress(party: Party, locale: InvoiceLocale): string | null | undefined {
  const { street, postal_code: postalCode, city, country } = party;
  if (street === undefined && postalCode === undefined && city === undefined) {
    // A country alone goes under the free-text address (if any).
    if (country === undefined) return undefined;
    return [nonBlank(party.address), countryName(country, locale)].filter(Boolean).join('\n');
  }
  const cityLine = [postalCode, city].filter(Boolean).join(' ');
  return [street, cityLine || undefined, country === undefined ? undefined : countryName(country, locale)]
    .filter(Boolean)
    .join('\n');
}

/** Optional text that is empty or only white space prints nothing (and no empty label). */
export function nonBlank(text: string | undefined): string | null {
  return text === undefined || text.trim() === '' ? null : text;
}
